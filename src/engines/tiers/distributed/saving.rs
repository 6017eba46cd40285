//! The distributed tier solver's tier file, kept by worker 0 alone: each solved tier's shares
//! gathered to it and written as the solve on one machine writes them, and on resume each
//! tier read back from the file and scattered to its owners ([`Shares`]).
//!
//! Before anything else (`tiers::saving::agree`), worker 0 tells every worker that it saves and
//! how many tiers, from the last, its file holds. Every worker then goes by requests, skips the
//! same tiers' rounds (the requests' rounds stay in step) and sends the same pieces.

use super::super::Cell;
use super::super::mailbox::Mailbox;
use super::super::saving::{Files, append, saved};
use super::super::workers::block;
use crate::error::SolveError;

/// A piece of a tier's values: `(to, tier, first rank, values)`.
type Piece<V> = (u32, u32, u64, Vec<V>);

/// Values a piece carries at most.
const PIECE: usize = 1 << 20;

/// A worker's channel for tiers' shares, to worker 0 and from it.
pub(super) struct Shares<V: Cell + timely::ExchangeData> {
    mail: Mailbox<Piece<V>>,
    me: usize,
    workers: usize,
}

impl<V: Cell + timely::ExchangeData> Shares<V> {
    /// The channel's dataflow (every worker builds it, saving or not).
    pub(super) fn new(worker: &mut timely::worker::Worker) -> Shares<V> {
        Shares {
            mail: Mailbox::new(worker, |piece: &Piece<V>| piece.0),
            me: worker.index(),
            workers: worker.peers(),
        }
    }

    /// Waits, parked, until every worker is here: a worker leaves only once every other has
    /// come (each worker's answers may be read by the others as soon as they leave).
    pub(super) fn barrier(&mut self, worker: &mut timely::worker::Worker) {
        self.mail.settle(worker);
    }

    /// Sends `values` (ranks from `first` on of tier `tier`) to worker `to`, in pieces.
    fn send(&mut self, to: usize, tier: usize, first: u64, values: &[V]) {
        for (at, piece) in values.chunks(PIECE).enumerate() {
            let rank = first + (at * PIECE) as u64;
            self.mail
                .send((to as u32, tier as u32, rank, piece.to_vec()));
        }
    }

    /// The pieces of tier `tier` received from the others, written into `into` (whose first
    /// rank is `base`): how many ranks each piece's sender (of shares of `size` ranks) sent.
    fn receive(&self, tier: usize, base: u64, size: u64, into: &mut [V]) -> Vec<u64> {
        let mut received = vec![0; self.workers];
        self.mail.inbox.borrow_mut().retain(|piece| {
            if piece.1 as usize != tier {
                return true;
            }
            let at = (piece.2 - base) as usize;
            if let Some(place) = into.get_mut(at..at + piece.3.len()) {
                place.copy_from_slice(&piece.3);
                if let Some(count) = received.get_mut((piece.2 / size) as usize) {
                    *count += piece.3.len() as u64;
                }
            }
            false
        });
        received
    }

    /// Every worker's share of tier `tier` (of `len` ranks) gathered to worker 0 and appended
    /// to its tier file (`files`); a worker sends its share `own` only where it has no fault,
    /// and a tier with a share missing is never written (`Err` names the worker).
    pub(super) fn write(
        &mut self,
        worker: &mut timely::worker::Worker,
        files: Option<&mut Files>,
        tier: usize,
        len: u64,
        own: Option<&[V]>,
    ) -> Result<(), SolveError> {
        match self.gather(worker, tier, len, own)? {
            Some(whole) => append(files, tier, &whole),
            None => Ok(()),
        }
    }

    /// Tier `tier` (of `len` ranks) read back from worker 0's tier file (`files`) and
    /// scattered: each worker's own share, or `Err` where the file lacks it or it did not
    /// arrive. Worker 0 scatters even where its read failed, so that the others stay in step.
    pub(super) fn read_back(
        &mut self,
        worker: &mut timely::worker::Worker,
        files: Option<&Files>,
        tier: usize,
        len: u64,
    ) -> Result<Vec<V>, SolveError> {
        let read = (self.me == 0).then(|| {
            saved::<V>(files, tier, len)?.ok_or_else(|| {
                SolveError::Distributed(format!("the tier file does not hold tier {tier}"))
            })
        });
        let whole = read.as_ref().and_then(|read| read.as_deref().ok());
        let own = self.scatter(worker, tier, len, whole);
        match read {
            Some(Err(error)) => Err(error),
            _ => own,
        }
    }

    /// Every worker's share of tier `tier` (of `len` ranks) gathered to worker 0, which gets
    /// the whole tier; a worker sends its share `own` only where it has no fault (a tier with
    /// a share missing is never written: `Err` names the worker). `None` on other workers.
    fn gather(
        &mut self,
        worker: &mut timely::worker::Worker,
        tier: usize,
        len: u64,
        own: Option<&[V]>,
    ) -> Result<Option<Vec<V>>, SolveError> {
        let size = block(len, self.workers);
        if self.me != 0
            && let Some(own) = own
        {
            self.send(0, tier, size * self.me as u64, own);
        }
        self.mail.settle(worker);
        if self.me != 0 {
            return Ok(None);
        }
        let mut whole = super::super::allocate::<V>(len, tier)?;
        let own = own.unwrap_or_default();
        whole[..own.len()].copy_from_slice(own);
        let received = self.receive(tier, 0, size, &mut whole);
        let missing = (1..self.workers).find(|&other| {
            let first = (size * other as u64).min(len);
            received[other] != (first + size).min(len) - first
        });
        match missing {
            Some(other) => Err(SolveError::Distributed(format!(
                "worker {other} sent no values of tier {tier} (it failed: its own error says \
                 why), so the tier was not written to the tier file"
            ))),
            None if own.len() as u64 != size.min(len) => Err(SolveError::Distributed(format!(
                "worker 0 has no values of tier {tier}, so the tier was not written to the tier \
                 file"
            ))),
            None => Ok(Some(whole)),
        }
    }

    /// Tier `tier` (of `len` ranks) read back from the file by worker 0 (`whole`, `None` on
    /// the others) and scattered: each worker's own share, or `Err` where it did not arrive.
    fn scatter(
        &mut self,
        worker: &mut timely::worker::Worker,
        tier: usize,
        len: u64,
        whole: Option<&[V]>,
    ) -> Result<Vec<V>, SolveError> {
        let size = block(len, self.workers);
        let share = |owner: usize| {
            let first = (size * owner as u64).min(len);
            (first, (first + size).min(len))
        };
        if let Some(whole) = whole {
            for other in 1..self.workers {
                let (first, end) = share(other);
                self.send(other, tier, first, &whole[first as usize..end as usize]);
            }
        }
        self.mail.settle(worker);
        let (first, end) = share(self.me);
        if let Some(whole) = whole {
            return Ok(whole[first as usize..end as usize].to_vec());
        }
        let mut own = super::super::allocate::<V>(end - first, tier)?;
        if self
            .receive(tier, first, size, &mut own)
            .iter()
            .sum::<u64>()
            != end - first
        {
            return Err(SolveError::Distributed(format!(
                "worker {} did not receive its share of tier {tier} from the tier file",
                self.me
            )));
        }
        Ok(own)
    }
}

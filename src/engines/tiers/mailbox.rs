//! A worker's mailbox on timely dataflow: messages sent to the worker each names, kept in the
//! receiver's inbox until it takes them, and a wait until every worker's messages so far are
//! in. The distributed solvers' collective steps (the loopy tiers' codes, the tier files'
//! shares) go through one each.

use std::cell::RefCell;
use std::rc::Rc;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// One worker's end of a mailbox of messages `T`.
pub(super) struct Mailbox<T: timely::ExchangeData + Clone> {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<T>>>,
    probe: ProbeHandle<u64>,
    time: u64,
    /// What arrived and was not taken yet.
    pub(super) inbox: Rc<RefCell<Vec<T>>>,
}

impl<T: timely::ExchangeData + Clone> Mailbox<T> {
    /// The mailbox's dataflow (every worker builds the same ones, in the same order), each
    /// message going to the worker `to` names.
    pub(super) fn new(worker: &mut timely::worker::Worker, to: fn(&T) -> u32) -> Mailbox<T> {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Rc<RefCell<Vec<T>>> = Rc::default();
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<T>>()
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(move |message: &T| u64::from(to(message))),
                    "Mailbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each_stamp(|_, batches| {
                                let mut inbox = sink.borrow_mut();
                                for batch in batches {
                                    inbox.extend(batch.iter().cloned());
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Mailbox {
            input,
            probe,
            time: 0,
            inbox,
        }
    }

    /// Sends `message` to the worker it names.
    pub(super) fn send(&mut self, message: T) {
        self.input.send(message);
    }

    /// Waits, parked, until every worker's messages so far are in. A worker leaves only once
    /// every other has come, so it is a barrier too.
    pub(super) fn settle(&mut self, worker: &mut timely::worker::Worker) {
        self.time += 1;
        self.input.advance_to(self.time);
        while self.probe.less_than(self.input.time()) {
            worker.step_or_park(None);
        }
    }
}

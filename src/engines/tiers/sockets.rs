//! The processes of a cluster connected without timely's one-second polls, then handed to
//! timely's own networking.
//!
//! timely's `execute` connects a cluster's processes itself, but it polls: a process that
//! awaits a connection checks its listener and sleeps a whole second whenever none has come
//! in, and a process that finds no listener retries a second later. On localhost that second
//! was most of a small solve's time. Here each process accepts on a blocking listener (a
//! connection is taken the moment it arrives) and connects to the processes before it with a
//! short back-off; the connected sockets go to timely's
//! `initialize_networking_from_sockets`, which is there for callers that connect their own
//! sockets, so timely's send and receive threads, framing and progress tracking are unchanged.
//! The handshake is timely's: a connecting process sends its index as a big-endian `u64`.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::{Hooks, WorkerGuards};
use timely::worker::Worker;
use timely::{CommunicationConfig, Config};

/// The first wait between two attempts to reach a process that is not listening yet; it
/// doubles up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(2);
/// The longest wait between two attempts.
const LONGEST_WAIT: Duration = Duration::from_millis(100);
/// After this long without reaching a process, say on stderr whom this one waits for (once).
const SAY_AFTER: Duration = Duration::from_secs(2);

/// Runs `work` on every worker of this process as `timely::execute` does, connecting a
/// cluster's processes by [`connect`].
pub(super) fn execute<T, F>(config: Config, work: F) -> Result<WorkerGuards<T>, String>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> T + Send + Sync + 'static,
{
    let Config {
        communication,
        worker,
    } = config;
    let CommunicationConfig::Cluster {
        threads,
        process,
        addresses,
        zerocopy,
        ..
    } = communication
    else {
        return timely::execute(
            Config {
                communication,
                worker,
            },
            work,
        );
    };
    let sockets = connect(&addresses, process)
        .map_err(|error| format!("failed to connect the processes: {error}"))?;
    let hooks = Hooks::default();
    let local = if zerocopy {
        ProcessBuilder::new_bytes_vector(threads, hooks.refill.clone(), hooks.spill.clone())
    } else {
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone())
    };
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, process, threads, hooks)
            .map_err(|error| format!("failed to initialize networking: {error}"))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    timely::execute::execute_from(builders, Box::new(guard), worker, work)
}

/// One socket per process of `addresses` in order, `None` at `me`: the processes after `me`
/// connect to this one's address, this one connects to those before it.
pub(super) fn connect(addresses: &[String], me: usize) -> io::Result<Vec<Option<TcpStream>>> {
    let later = addresses.len() - me - 1;
    let listener = if later > 0 {
        Some(TcpListener::bind(addresses[me].as_str())?)
    } else {
        None
    };
    let accepting = thread::spawn(move || accept(listener, me, later));
    let mut sockets = Vec::with_capacity(addresses.len());
    for (index, address) in addresses.iter().enumerate().take(me) {
        let mut stream = reach(address, index)?;
        stream.set_nodelay(true)?;
        stream.write_all(&(me as u64).to_be_bytes())?;
        sockets.push(Some(stream));
    }
    sockets.push(None);
    let accepted = accepting
        .join()
        .map_err(|_| io::Error::other("the thread accepting connections panicked"))??;
    sockets.extend(accepted.into_iter().map(Some));
    Ok(sockets)
}

/// The connections of the `later` processes after `me`, in their order, each taken as it
/// arrives.
fn accept(listener: Option<TcpListener>, me: usize, later: usize) -> io::Result<Vec<TcpStream>> {
    let mut accepted: Vec<Option<TcpStream>> = (0..later).map(|_| None).collect();
    let Some(listener) = listener else {
        return Ok(Vec::new());
    };
    let mut taken = 0;
    while taken < later {
        let (mut stream, _) = listener.accept()?;
        stream.set_nodelay(true)?;
        let mut index = [0; 8];
        stream.read_exact(&mut index)?;
        let index = u64::from_be_bytes(index);
        let place = usize::try_from(index)
            .ok()
            .and_then(|index| index.checked_sub(me + 1))
            .filter(|&place| place < later);
        let Some(place) = place else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a connection said it is process {index}, not one after process {me}"),
            ));
        };
        if accepted[place].replace(stream).is_some() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("process {index} connected twice"),
            ));
        }
        taken += 1;
    }
    Ok(accepted.into_iter().flatten().collect())
}

/// A connection to process `index` at `address`, retried until it listens.
fn reach(address: &str, index: usize) -> io::Result<TcpStream> {
    let started = Instant::now();
    let mut wait = FIRST_WAIT;
    let mut said = false;
    loop {
        match TcpStream::connect(address) {
            Ok(stream) => return Ok(stream),
            Err(error) if retried(&error) => {
                if !said && started.elapsed() >= SAY_AFTER {
                    eprintln!("waiting for process {index} to listen at {address} ({error})");
                    said = true;
                }
                thread::sleep(wait);
                wait = (wait * 2).min(LONGEST_WAIT);
            }
            Err(error) => return Err(error),
        }
    }
}

/// Whether a failed connection is one to try again: the other process is not listening yet.
fn retried(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::TimedOut
            | io::ErrorKind::AddrNotAvailable
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three processes in three threads: every pair is connected once, each socket at its
    /// peer's place, and bytes written at one end arrive at the other.
    #[test]
    fn every_pair_connects_in_order() {
        let ports: Vec<u16> = (0..3)
            .map(|_| {
                TcpListener::bind("127.0.0.1:0")
                    .and_then(|listener| listener.local_addr())
                    .map(|address| address.port())
                    .unwrap()
            })
            .collect();
        let addresses: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
        // The last process starts first, so its connections must be retried.
        let handles: Vec<_> = (0..3)
            .rev()
            .map(|me| {
                let addresses = addresses.clone();
                thread::spawn(move || {
                    let mut sockets = connect(&addresses, me).unwrap();
                    assert_eq!(sockets.len(), 3);
                    assert!(sockets[me].is_none());
                    for (peer, socket) in sockets.iter_mut().enumerate() {
                        if let Some(socket) = socket {
                            socket.write_all(&[me as u8, peer as u8]).unwrap();
                        }
                    }
                    for (peer, socket) in sockets.iter_mut().enumerate() {
                        if let Some(socket) = socket {
                            let mut said = [0; 2];
                            socket.read_exact(&mut said).unwrap();
                            assert_eq!(said, [peer as u8, me as u8]);
                        }
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
    }

    /// A stranger's index is refused with a message, not a panic.
    #[test]
    fn a_wrong_index_is_an_error() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let stranger = thread::spawn(move || {
            let mut stream = TcpStream::connect(address).unwrap();
            stream.write_all(&7u64.to_be_bytes()).unwrap();
        });
        let error = accept(Some(listener), 0, 1).unwrap_err();
        assert!(error.to_string().contains("process 7"), "{error}");
        stranger.join().unwrap();
    }
}

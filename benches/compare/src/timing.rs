//! Interleaved timing: Lamina, parry2d, Lamina, parry2d, ... so that both engines
//! see the same machine state (frequency, caches, other load) round by round.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Rounds per engine.
pub const ROUNDS: usize = 21;

/// The least time one round of a tight loop lasts; the iteration count is chosen to reach it.
const ROUND_TIME: Duration = Duration::from_millis(5);

/// Nanoseconds per query over the rounds.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub median: f64,
    pub min: f64,
}

/// Both engines' times for one row; `parry` is `None` where parry2d cannot run the row.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub lamina: Stats,
    pub parry: Option<Stats>,
}

/// Times `lamina` and `parry` in alternating rounds of `n` calls each.
pub fn compare<L, P, A, B>(mut lamina: L, mut parry: Option<P>) -> Timing
where
    L: FnMut() -> A,
    P: FnMut() -> B,
{
    let n_lamina = iterations(&mut lamina);
    let n_parry = parry.as_mut().map(iterations);
    let (mut times_lamina, mut times_parry) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        times_lamina.push(round(&mut lamina, n_lamina));
        if let (Some(p), Some(n)) = (parry.as_mut(), n_parry) {
            times_parry.push(round(p, n));
        }
    }
    Timing { lamina: stats(times_lamina), parry: n_parry.map(|_| stats(times_parry)) }
}

/// Nanoseconds per call over `n` calls.
fn round<T>(f: &mut impl FnMut() -> T, n: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

/// The number of calls that lasts at least [`ROUND_TIME`] (after a warm-up of the same length).
fn iterations<T>(f: &mut impl FnMut() -> T) -> u64 {
    let mut n = 1;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        if start.elapsed() >= ROUND_TIME {
            return n;
        }
        n *= 2;
    }
}

fn stats(mut times: Vec<f64>) -> Stats {
    times.sort_by(f64::total_cmp);
    Stats { median: times[times.len() / 2], min: times[0] }
}

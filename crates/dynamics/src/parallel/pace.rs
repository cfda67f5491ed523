//! Choosing, by timing, whether work runs shared with the rayon pool or on
//! the calling thread alone.
//!
//! Sharing pays where each thread finds its data in its own cache. Where it
//! does not, the data cross between the cores' caches at every stage, and
//! two threads can be slower than one: on a lent 16-core machine the
//! tumbler's whole step took 2.82 ms on two threads against 2.32 on one,
//! every stage but the narrow phase slower. Which way is faster depends on
//! the scene, the machine and the thread count, and changes as the scene
//! does, so it is measured ([`Pace`]). Two paces run: the world's, over
//! whole steps (`world/step.rs`, where [`Sharing`] lets a program choose the way
//! itself), and the solver's, over its substeps in the steady steps that
//! share (`solver/soft_step.rs`).
//!
//! Which way runs never changes a result: every stage gives the same bits on
//! any number of threads. Each way keeps its own buffers from step to step,
//! so neither allocates once warm; a world that grew while running alone
//! grows the shared way's at its next try, as any buffer grows with its
//! world.

/// How a world's step shares its work with the threads of the rayon pool it
/// runs on ([`World::set_sharing`](crate::World::set_sharing)). Every way
/// gives the same bits; only the time differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sharing {
    /// A step with work enough to share runs on the pool or on the calling
    /// thread alone, whichever its pace has found faster, and tries the
    /// other way now and then.
    #[default]
    Paced,
    /// Every stage with work enough shares it with the pool.
    Always,
    /// Every stage runs on the calling thread, whatever the pool.
    Never,
}

/// How many threads of the pool a step's stages may share their work with:
/// the pool's, or one when the step runs alone. Set at the start of each
/// step; a stage shares only when this allows it and it has enough work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threads(usize);

impl Threads {
    /// The calling thread alone.
    pub const ALONE: Self = Self(1);

    /// Every thread of the current rayon pool.
    pub fn of_pool() -> Self {
        Self(rayon::current_num_threads())
    }

    /// How many threads that is.
    pub fn count(self) -> usize {
        self.0
    }

    /// Whether a stage of `items` items, worth sharing from `from` items on,
    /// is shared.
    pub fn share(self, items: usize, from: usize) -> bool {
        self.0 > 1 && items >= from
    }
}

impl Default for Threads {
    fn default() -> Self {
        Self::of_pool()
    }
}

/// Whether some work runs shared with the pool or on the calling thread
/// alone, chosen by how fast each way went lately (time per item of work).
///
/// The chosen way runs, and every so often the other is tried for a few
/// runs: soon after a change of way, less and less often while the choice
/// holds, and seldom once a try found the other way much slower. A try
/// switches the way only when its best run beats the chosen way's by a
/// clear margin. The chosen way is judged by its best runs just
/// before the try and just after, averaged, so that a scene whose work per
/// item drifts (bodies settling, a pile growing) favours neither way; and
/// by bests rather than means, so that a run slowed by something else on
/// the machine (a page fault, another program) does not decide. The first
/// run of a way after a change is not timed: it finds the caches laid out
/// for the other way. Either way gives the same bits; only the time
/// differs.
#[derive(Clone, Debug)]
pub(crate) struct Pace {
    /// Runs chosen so far.
    runs: u64,
    /// The chosen way: shared (true) or alone.
    shared: bool,
    /// The next run is not timed (the first after a change of way).
    settling: bool,
    /// The chosen way's last two timed runs, seconds per item (`INFINITY`
    /// where none yet), the older first.
    recent: [f64; 2],
    /// The runs of the next try of the other way; the chosen way's best
    /// before it; the best of the try's timed runs; and the chosen way's
    /// best in the runs after it, until the try is judged.
    try_runs: std::ops::Range<u64>,
    before: f64,
    tried: f64,
    after: f64,
    /// Runs between the judging of a try and the next.
    interval: u64,
    /// Whether the last run chosen is a plain run of the chosen way, away
    /// from any try and the runs that judge it ([`Pace::steady`]).
    steady: bool,
    /// How much faster a try must be to leave the shared way for alone,
    /// and to come back ([`Margins`]).
    margins: Margins,
    /// The items of the last timed run of the chosen way, and of the last
    /// when a try was judged (0 before any).
    items: usize,
    items_judged: usize,
}

/// How much faster a try must be to change the way, as a fraction of the
/// chosen way's time: to leave the shared way for alone, and to come back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Margins {
    pub to_alone: f64,
    pub to_shared: f64,
}

impl Margins {
    /// A twentieth either way: for the solver's team, within a step that
    /// already chose to share. Steps of a moving scene vary by a few
    /// hundredths from one to the next, so the best of two runs each way
    /// can differ by about that much on noise alone.
    pub const EVEN: Self = Self { to_alone: 0.05, to_shared: 0.05 };
    /// A tenth to leave the pool for one thread, a fiftieth to come back:
    /// for whole steps. Leaving the pool the program gave takes a clear
    /// win, and a scene that has grown into sharing (a pile still falling
    /// in, alone faster, then settled and dense, the pool faster by a
    /// tenth on the 2-core machine) comes back to it.
    pub const STEPS: Self = Self { to_alone: 0.10, to_shared: 0.02 };
}

impl Default for Pace {
    /// Shared first, then alone tried after a few runs, by even margins.
    fn default() -> Self {
        Self::new(Self::FIRST_TRY, Margins::EVEN)
    }
}

impl Pace {
    /// The pace of whole steps: its first try waits for the solver's pace
    /// ([`Pace::STEP_FIRST_TRY`]), and leaves the pool only on a clear win.
    pub fn for_steps() -> Self {
        Self::new(Self::STEP_FIRST_TRY, Margins::STEPS)
    }

    /// A pace that runs shared first, tries alone from run `first_try`, and
    /// changes way by `margins`.
    pub fn new(first_try: u64, margins: Margins) -> Self {
        Self {
            runs: 0,
            shared: true,
            settling: true,
            recent: [f64::INFINITY; 2],
            try_runs: first_try..first_try + Self::TRY_RUNS,
            before: f64::INFINITY,
            tried: f64::INFINITY,
            after: f64::INFINITY,
            interval: Self::FIRST_INTERVAL,
            steady: false,
            margins,
            items: 0,
            items_judged: 0,
        }
    }

    /// The run that starts the first try: after a settling run and two timed.
    pub const FIRST_TRY: u64 = 3;
    /// The run at which the first try is judged, by default.
    pub const FIRST_JUDGED: u64 = Self::FIRST_TRY + 2 * Self::TRY_RUNS;
    /// The run that starts a step's first try: once the pace of the solver
    /// within it has judged its own first try. That pace runs only in the
    /// step's steady runs, the first of which is the step's second (its
    /// first settles); it judges at its run `FIRST_JUDGED`, the step's
    /// `FIRST_JUDGED + 1`; the step's try is then timed against the two
    /// runs after that. Tried sooner, the step would time its shared runs
    /// with the solver's team still untried, and in a scene where the team
    /// is the slower way find sharing slower than it is.
    pub const STEP_FIRST_TRY: u64 = Self::FIRST_JUDGED + 4;
    /// Runs of a try, and of the chosen way after it before the try is
    /// judged: one to settle the caches, two timed.
    pub const TRY_RUNS: u64 = 3;
    /// Runs between two tries: at first and after a change of way, and at
    /// most (doubling while the choice holds).
    pub const FIRST_INTERVAL: u64 = 16;
    pub const LONGEST_INTERVAL: u64 = 256;
    /// Runs to wait after a try, per run of the try and per unit of how
    /// much slower it was: a try of runs twice as slow costs a run's time
    /// each, which the wait would spread over two hundred runs apiece, were
    /// it not cut to [`Pace::LONGEST_INTERVAL`].
    pub const WAIT_PER_LOSS: f64 = 200.0;
    /// How far apart the chosen way's times on the two sides of a try may
    /// be for the try to be judged: a fifth.
    pub const JUMP: f64 = 1.2;

    /// Whether the next run is shared (true) or alone, and whether its time
    /// should be recorded.
    pub fn choose(&mut self) -> (bool, bool) {
        let n = self.runs;
        self.runs += 1;
        let tries = self.try_runs.clone();
        // From the two runs that time the chosen way before a try to the
        // last that times it after.
        let window = tries.start.saturating_sub(2)..tries.end + Self::TRY_RUNS;
        self.steady = !window.contains(&n);
        if n == tries.start {
            self.before = self.recent[0].min(self.recent[1]);
        }
        if tries.contains(&n) {
            return (!self.shared, n > tries.start);
        }
        if n == tries.end {
            self.settling = true;
        }
        if n == tries.end + Self::TRY_RUNS {
            self.judge(n);
        }
        let settling = std::mem::take(&mut self.settling);
        self.steady &= !settling;
        (self.shared, !settling)
    }

    /// The way chosen, without choosing a run: for work run within another
    /// pace's run that must not try or time anything then.
    pub fn way(&self) -> bool {
        self.shared
    }

    /// Whether the last run chosen is a plain run of the chosen way: not a
    /// try, not one of the runs that time the chosen way around a try, not
    /// the first after a change. Another pace timed within this one's runs
    /// (the solver's, within the step's) tries and times only then, so that
    /// neither's tries skew the other's times.
    pub fn steady(&self) -> bool {
        self.steady
    }

    /// Records that a run of `items` items took `seconds`, shared or alone.
    pub fn record(&mut self, shared: bool, items: usize, seconds: f64) {
        if items == 0 {
            return;
        }
        let per_item = seconds / items as f64;
        if shared != self.shared {
            self.tried = self.tried.min(per_item);
            return;
        }
        self.recent = [self.recent[1], per_item];
        if self.runs > self.try_runs.end {
            // One of the runs that judge the try.
            self.after = self.after.min(per_item);
        }
        self.items = items;
        // Work twice or half what it was when last judged (a scene that
        // grew from a few bodies to a crowd) may favour the other way: the
        // verdict is stale, and the next try comes after two more runs.
        if self.work_changed() && self.try_runs.start > self.runs + 2 {
            let start = self.runs + 2;
            self.try_runs = start..start + Self::TRY_RUNS;
            self.items_judged = items;
        }
    }

    /// Whether the chosen way's last run had twice or half the items it
    /// had when a try was last judged.
    fn work_changed(&self) -> bool {
        let (now, judged) = (self.items, self.items_judged);
        judged > 0 && (now > 2 * judged || 2 * now < judged)
    }

    /// Judges the try before run `n`: the way it tried is taken if it beat
    /// the chosen way by the margin, and tried against again soon; a choice
    /// it confirmed is tried against less often, the less the slower the
    /// try was.
    fn judge(&mut self, n: u64) {
        // Work that changed twofold during the try leaves its verdict stale
        // as soon as it is given: the next try comes after two runs.
        let stale = self.work_changed();
        self.items_judged = self.items;
        let (before, after) = (self.before, self.after);
        let chosen = match (before.is_finite(), after.is_finite()) {
            (true, true) => 0.5 * (before + after),
            _ => before.min(after),
        };
        // A scene whose work per item jumped during the try (a crowd
        // landing) judges nothing: averaging its two sides would not give
        // the chosen way's time in the middle. It is tried again soon.
        if before.max(after) > Self::JUMP * before.min(after) {
            self.interval = Self::FIRST_INTERVAL;
            (self.before, self.tried, self.after) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
            let start = n + self.interval;
            self.try_runs = start..start + Self::TRY_RUNS;
            return;
        }
        // Without a time of the chosen way there is nothing to beat.
        let margin = if self.shared { self.margins.to_alone } else { self.margins.to_shared };
        if chosen.is_finite() && self.tried < chosen * (1.0 - margin) {
            self.shared = !self.shared;
            self.settling = true;
            self.recent = [f64::INFINITY; 2];
            self.interval = Self::FIRST_INTERVAL;
        } else {
            // Where nothing was timed the ratio is not finite, and the wait
            // the longest.
            let loss = self.tried / chosen - 1.0;
            let wait = if loss.is_finite() {
                (Self::WAIT_PER_LOSS * Self::TRY_RUNS as f64 * loss) as u64
            } else {
                u64::MAX
            };
            self.interval = (2 * self.interval).max(wait).min(Self::LONGEST_INTERVAL);
        }
        (self.before, self.tried, self.after) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let start = n + if stale { 2 } else { self.interval };
        self.try_runs = start..start + Self::TRY_RUNS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `runs` of `pace`, each taking `time(n, shared)` seconds for one
    /// item, recorded when the pace asks; returns the ways chosen.
    fn drive(pace: &mut Pace, runs: std::ops::Range<u64>, time: impl Fn(u64, bool) -> f64) -> Vec<bool> {
        drive_work(pace, runs, |n, shared| (1, time(n, shared)))
    }

    /// [`drive`] for runs of `work(n, shared)`: their items and seconds.
    fn drive_work(
        pace: &mut Pace,
        runs: std::ops::Range<u64>,
        work: impl Fn(u64, bool) -> (usize, f64),
    ) -> Vec<bool> {
        runs.map(|n| {
            let (shared, timed) = pace.choose();
            if timed {
                let (items, seconds) = work(n, shared);
                pace.record(shared, items, seconds);
            }
            shared
        })
        .collect()
    }

    /// The runs of `ways` (the first being run `from`) that ran one way.
    fn runs_of(ways: &[bool], from: u64, shared: bool) -> Vec<u64> {
        ways.iter().zip(from..).filter(|(way, _)| **way == shared).map(|(_, n)| n).collect()
    }

    /// Shared slower than alone (twice as slow, then 4 % slower from run
    /// 9 on): three runs shared (the first not timed), a try of three alone
    /// (the first not timed), three shared again, then alone from run 9 on,
    /// with shared tried 16 runs after, then 32, 64, 128 and 256 after each
    /// try is judged, and no less often.
    #[test]
    fn runs_the_faster_way_and_tries_the_other_less_and_less_often() {
        let mut pace = Pace::default();
        let first: Vec<_> = (0..9).map(|_| pace.choose()).collect();
        let (shared, alone) = ((true, true), (false, true));
        let (settle_shared, settle_alone) = ((true, false), (false, false));
        let expected =
            [settle_shared, shared, shared, settle_alone, alone, alone, settle_shared, shared, shared];
        assert_eq!(first, expected);
        let mut pace = Pace::default();
        let ways = drive(&mut pace, 0..1200, |n, shared| match (shared, n < 9) {
            (true, true) => 0.02,
            (true, false) => 0.0104,
            (false, _) => 0.01,
        });
        // Tries begin at 25 (16 after the judging at 9), 63, 133, 267, 529,
        // 791 and 1053.
        let tries = [25, 63, 133, 267, 529, 791, 1053];
        let mut expected = vec![0, 1, 2, 6, 7, 8];
        expected.extend(tries.iter().flat_map(|&t| t..t + Pace::TRY_RUNS));
        assert_eq!(runs_of(&ways, 0, true), expected);
    }

    /// A try twice as slow as the chosen way is not made again for the
    /// longest interval: 256 runs after the judging.
    #[test]
    fn a_much_slower_way_is_tried_seldom() {
        let mut pace = Pace::default();
        let ways = drive(&mut pace, 0..1200, |_, shared| if shared { 0.02 } else { 0.01 });
        let mut expected = vec![0, 1, 2, 6, 7, 8];
        expected.extend([25, 287, 549, 811, 1073].iter().flat_map(|&t| t..t + Pace::TRY_RUNS));
        assert_eq!(runs_of(&ways, 0, true), expected);
    }

    /// Once alone is chosen, a try of shared a hair (1 %) faster than alone,
    /// with alone's runs now and then five times as long (a machine busy
    /// for a moment), keeps alone; a try clearly faster switches to shared.
    #[test]
    fn noise_does_not_switch_the_way() {
        let mut pace = Pace::default();
        let ways = drive(&mut pace, 0..25, |_, shared| if shared { 0.02 } else { 0.01 });
        assert_eq!(runs_of(&ways, 0, true), [0, 1, 2, 6, 7, 8], "alone from run 9");
        // The try (25 to 27) is judged at 31, next at 63.
        let ways = drive(&mut pace, 25..63, |n, shared| match (shared, n % 5) {
            (true, _) => 0.0099,
            (false, 0) => 0.05,
            (false, _) => 0.01,
        });
        assert_eq!(runs_of(&ways, 25, true), [25, 26, 27], "only the try ran shared");
        // The try at 63 to 65, judged at 69, switches; alone is tried 16
        // runs later.
        let ways = drive(&mut pace, 63..100, |_, shared| if shared { 0.008 } else { 0.01 });
        assert_eq!(runs_of(&ways, 63, false), [66, 67, 68, 85, 86, 87]);
    }

    /// By the margins of whole steps, leaving the pool takes a try a tenth
    /// faster; coming back, a fiftieth: alone 5 % faster than shared is not
    /// taken, and once alone is taken (a fifth faster, for a while), shared
    /// 5 % faster is.
    #[test]
    fn leaving_the_pool_takes_a_clearer_win_than_coming_back() {
        let mut pace = Pace::new(Pace::FIRST_TRY, Margins::STEPS);
        let ways = drive(&mut pace, 0..60, |_, shared| if shared { 0.0105 } else { 0.01 });
        assert_eq!(runs_of(&ways, 0, false), [3, 4, 5, 41, 42, 43], "alone only in its tries");
        let mut pace = Pace::new(Pace::FIRST_TRY, Margins::STEPS);
        let ways = drive(&mut pace, 0..60, |n, shared| match (shared, n < 20) {
            (true, true) => 0.012,
            (true, false) => 0.0095,
            (false, _) => 0.01,
        });
        // Alone from 9; shared tried at 25 to 27, judged at 31 and taken;
        // alone tried again 16 runs later.
        let alone: Vec<u64> = runs_of(&ways, 0, false);
        assert_eq!(
            alone,
            [3, 4, 5, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 28, 29, 30, 47, 48, 49]
        );
    }

    /// A verdict given when the work was small is tried again soon once the
    /// work has grown twofold: alone wins at a hundred items and is chosen
    /// (judged at 9); shared wins from 2,000 on (run 30), and is tried two
    /// runs after the work grows, not at the next scheduled try (41).
    #[test]
    fn work_grown_twofold_brings_the_next_try_forward() {
        let mut pace = Pace::default();
        let ways = drive_work(&mut pace, 0..40, |n, shared| {
            let items = if n < 30 { 100 } else { 2000 };
            let per_item = match (shared, n < 30) {
                (true, true) => 0.02,
                (false, true) => 0.01,
                (true, false) => 0.005,
                (false, false) => 0.01,
            };
            (items, per_item * items as f64)
        });
        // The try of shared at 25 to 27 loses (judged at 31, kept alone; the
        // work grew meanwhile); the next comes at 33, not 31 + 32, and wins.
        let shared = runs_of(&ways, 0, true);
        let mut expected = vec![0, 1, 2, 6, 7, 8, 25, 26, 27, 33, 34, 35];
        expected.extend(39..40);
        assert_eq!(shared, expected);
    }

    /// Steady runs are the chosen way's, away from its tries: not the first
    /// run, not a try nor the two runs on either side that time the chosen
    /// way, not the first run after a change.
    #[test]
    fn steady_runs_keep_away_from_tries() {
        let mut pace = Pace::default();
        let steady: Vec<bool> = (0..30)
            .map(|_| {
                let (shared, timed) = pace.choose();
                if timed {
                    pace.record(shared, 1, if shared { 0.02 } else { 0.01 });
                }
                pace.steady()
            })
            .collect();
        // Alone is chosen at 9 (a change: not steady); the next try is at
        // 25 to 27, timed against 23 and 24 before it.
        let expected: Vec<bool> = (0..30).map(|n| (10..23).contains(&n)).collect();
        assert_eq!(steady, expected);
    }

    /// A try is not taken when the chosen way has no time to beat (its runs
    /// had no items of work): the way holds, however the try went.
    #[test]
    fn a_try_without_a_time_to_beat_changes_nothing() {
        let mut pace = Pace::default();
        let ways = drive_work(&mut pace, 0..45, |_, shared| (usize::from(!shared), 0.01));
        // Judged at 9, kept; the next try 32 runs later.
        assert_eq!(runs_of(&ways, 0, false), [3, 4, 5, 41, 42, 43]);
    }

    /// Once alone is chosen, the two ways as fast in a scene whose work per
    /// item falls by 1 % a run: a try of shared always finds it faster than
    /// alone's runs before it (by 3 %, more than the 2 % it must win by
    /// with the margins of whole steps), but not than those on both sides;
    /// the way never changes back.
    #[test]
    fn a_drifting_scene_favours_neither_way() {
        let mut pace = Pace::new(Pace::FIRST_TRY, Margins::STEPS);
        let ways = drive(&mut pace, 0..600, |n, shared| match (shared, n < 9) {
            (true, true) => 0.02,
            _ => 0.01 * 0.99f64.powi(n as i32),
        });
        let shared = runs_of(&ways, 9, true);
        let tries = shared.chunks(3).all(|t| t.len() == 3 && t[2] == t[0] + 2);
        assert!(tries && shared.len() >= 9, "only tries ran shared: {shared:?}");
    }

    /// A try during which the scene's work per item jumps (the chosen way's
    /// runs after it take half as long again as those before) is not
    /// judged, though the try beats the chosen way's average by far: the
    /// way holds, and the next try comes 16 runs later; that one, with the
    /// scene steady, is judged and taken.
    #[test]
    fn a_try_across_a_jump_is_not_judged() {
        let mut pace = Pace::default();
        let ways = drive(&mut pace, 0..40, |n, shared| match (shared, n) {
            (true, ..=2) => 0.01,
            (true, _) => 0.015,
            (false, _) => 0.0105,
        });
        let mut expected = vec![3, 4, 5, 25, 26, 27];
        expected.extend(31..40);
        assert_eq!(runs_of(&ways, 0, false), expected);
    }
}

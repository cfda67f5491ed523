//! The constraint graph: joints and contacts coloured for parallel solving.
//!
//! Bodies are the graph's nodes and constraints its edges. Constraints are
//! coloured greedily so that no two constraints of one colour
//! share a movable body: each takes the first colour in which neither of its
//! movable bodies is taken yet (immovable bodies never take a colour, so the
//! hundreds of contacts on one ground do not serialise). Within a colour,
//! constraints are independent — they can be solved in any order, or in
//! parallel, with the same result — and colours are solved in a fixed order.
//! Constraints that find no free colour among the first [`COLOR_COUNT`] − 1 go
//! to the last, overflow colour, which is solved serially.
//!
//! Joints are coloured first, then contacts, each in its own order; both share
//! the colours' body sets, so a joint and a contact of one colour never share a
//! movable body either, and a colour's joints and contacts may be solved one
//! after the other, each set in parallel.
//!
//! Solving colour by colour also spreads the order in which neighbouring
//! contacts are visited (a pyramid is solved like a checkerboard rather than row
//! by row), which removes the sideways drift that a plain left-to-right
//! Gauss–Seidel sweep builds up in tall structures.

use crate::body::NO_INDEX;

/// Colours, the last one being the overflow set (as in Box2D v3: 24).
pub(crate) const COLOR_COUNT: usize = 24;

/// The overflow colour: constraints that found no free colour, solved on one thread.
pub(crate) const OVERFLOW: usize = COLOR_COUNT - 1;

/// Constraints between two movable bodies take colours below this one;
/// constraints with an immovable body search from the top down, as in Box2D
/// v3. Colours are solved in order, so a wall's or the ground's contacts come
/// last in every pass and have the last word: a body squeezed against a wall
/// by a pile (or a paddle) is pushed out of the wall rather than into it.
const MOVABLE_COLOR_COUNT: usize = COLOR_COUNT - 4;

/// One kind of constraint sorted by colour.
#[derive(Default)]
pub(crate) struct ColorOrder {
    /// Constraint indices sorted by colour (stable within a colour).
    pub order: Vec<u32>,
    /// `order[starts[c]..starts[c + 1]]` are the constraints of colour `c`.
    pub starts: [usize; COLOR_COUNT + 1],
    colors: Vec<u8>,
}

impl ColorOrder {
    /// Sorts the constraints by the colours recorded in `colors`.
    fn sort(&mut self) {
        let mut counts = [0usize; COLOR_COUNT];
        for &color in &self.colors {
            counts[color as usize] += 1;
        }
        self.starts[0] = 0;
        for (c, &count) in counts.iter().enumerate() {
            self.starts[c + 1] = self.starts[c] + count;
        }
        self.order.clear();
        self.order.resize(self.colors.len(), 0);
        let mut next = self.starts;
        for (i, &color) in self.colors.iter().enumerate() {
            self.order[next[color as usize]] = i as u32;
            next[color as usize] += 1;
        }
    }
}

impl ColorOrder {
    /// This order with, within each colour but the overflow one, the
    /// constraints `first` takes before the others (each group keeping its
    /// order), written to `out`. The constraints of a colour share no movable
    /// body, so their order within it changes no result; grouping like with
    /// like fills lanes that skip the same work. The overflow colour's
    /// constraints are solved one after the other, and keep their order.
    pub fn grouped(&self, first: impl Fn(u32) -> bool, out: &mut ColorOrder) {
        out.order.clear();
        out.starts = self.starts;
        for color in 0..COLOR_COUNT {
            let members = &self.order[self.starts[color]..self.starts[color + 1]];
            if color == OVERFLOW {
                out.order.extend_from_slice(members);
                continue;
            }
            // Each constraint is written where its group's next one goes,
            // chosen without a branch: which group a constraint falls in
            // (a contact's point count) follows no pattern a predictor
            // could learn.
            let base = out.order.len();
            let firsts: usize = members.iter().map(|&i| usize::from(first(i))).sum();
            out.order.resize(base + members.len(), 0);
            let (mut front, mut back) = (base, base + firsts);
            for &i in members {
                let taken = first(i);
                out.order[if taken { front } else { back }] = i;
                front += usize::from(taken);
                back += usize::from(!taken);
            }
        }
    }

    /// Splits the constraints into those `first` takes and the rest, each kept
    /// in colour order.
    pub fn split(&self, first: impl Fn(u32) -> bool, yes: &mut ColorOrder, no: &mut ColorOrder) {
        yes.order.clear();
        no.order.clear();
        yes.starts[0] = 0;
        no.starts[0] = 0;
        for color in 0..COLOR_COUNT {
            for &i in &self.order[self.starts[color]..self.starts[color + 1]] {
                if first(i) { yes.order.push(i) } else { no.order.push(i) }
            }
            yes.starts[color + 1] = yes.order.len();
            no.starts[color + 1] = no.order.len();
        }
    }
}

/// Per-body colour masks and the resulting orders, reused between steps.
#[derive(Default)]
pub(crate) struct ConstraintGraph {
    /// Per movable body (by solver index): bit `c` is set once colour `c`
    /// holds a constraint of the body. One word per body, so the first free
    /// colour of a constraint is a bit scan of its two bodies' words, not a
    /// walk through a bitset per colour.
    taken: Vec<u32>,
    pub joints: ColorOrder,
    pub contacts: ColorOrder,
}

// Every colour has a bit in a body's mask.
const _: () = assert!(COLOR_COUNT <= u32::BITS as usize);

/// The colours `low..high` as bits.
const fn color_range(low: usize, high: usize) -> u32 {
    ((1u64 << high) - (1u64 << low)) as u32
}

impl ConstraintGraph {
    /// Colours joints, then contacts, each given by the solver indices of its
    /// two bodies, over `body_count` movable bodies.
    pub fn build(&mut self, joints: &[(u32, u32)], contacts: &[(u32, u32)], body_count: usize) {
        self.taken.clear();
        self.taken.resize(body_count, 0);
        self.joints.colors.clear();
        for &(a, b) in joints {
            let color = self.first_free_color(a, b);
            self.joints.colors.push(color as u8);
        }
        self.contacts.colors.clear();
        for &(a, b) in contacts {
            let color = self.first_free_color(a, b);
            self.contacts.colors.push(color as u8);
        }
        self.joints.sort();
        self.contacts.sort();
    }

    /// The first colour free for both bodies, marking them taken; the overflow
    /// colour when none is. Constraints with an immovable body search the
    /// colours from the top down (see [`MOVABLE_COLOR_COUNT`]).
    fn first_free_color(&mut self, a: u32, b: u32) -> usize {
        let mask = |i: u32| if i == NO_INDEX { 0 } else { self.taken[i as usize] };
        let free = !(mask(a) | mask(b));
        let immovable = a == NO_INDEX || b == NO_INDEX;
        let color = if immovable {
            let free = free & color_range(1, OVERFLOW);
            if free == 0 {
                return OVERFLOW;
            }
            (u32::BITS - 1 - free.leading_zeros()) as usize
        } else {
            let free = free & color_range(0, MOVABLE_COLOR_COUNT);
            if free == 0 {
                return OVERFLOW;
            }
            free.trailing_zeros() as usize
        };
        for i in [a, b] {
            if i != NO_INDEX {
                self.taken[i as usize] |= 1 << color;
            }
        }
        color
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colouring rule spelt out: for each constraint in turn, the colours
    /// of its range in search order, the first that no earlier constraint of
    /// that colour shares a movable body with; the overflow colour if none.
    fn greedy_by_search(constraints: &[(u32, u32)]) -> Vec<usize> {
        let mut colors: Vec<usize> = Vec::new();
        for (k, &(a, b)) in constraints.iter().enumerate() {
            let immovable = a == NO_INDEX || b == NO_INDEX;
            let search: Vec<usize> =
                if immovable { (1..OVERFLOW).rev().collect() } else { (0..MOVABLE_COLOR_COUNT).collect() };
            let shares = |i: u32, (c, d): (u32, u32)| i != NO_INDEX && (i == c || i == d);
            let free = |color: usize| {
                (0..k)
                    .all(|j| colors[j] != color || !(shares(a, constraints[j]) || shares(b, constraints[j])))
            };
            colors.push(search.into_iter().find(|&c| free(c)).unwrap_or(OVERFLOW));
        }
        colors
    }

    /// Random constraints among few bodies (so that colours run out and the
    /// overflow colour fills), some against immovable bodies: every colour
    /// the graph gives is the one the rule spelt out gives, and no two
    /// constraints of a colour other than the overflow share a movable body.
    #[test]
    fn colours_follow_the_greedy_rule() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u32| (rng.next() % u64::from(n)) as u32;
        for bodies in [2u32, 5, 12, 40] {
            let body = |r: u32| if r == bodies { NO_INDEX } else { r };
            let mut joints = Vec::new();
            let mut contacts = Vec::new();
            for _ in 0..60 {
                joints.push((body(next(bodies + 1)), next(bodies)));
            }
            for _ in 0..400 {
                contacts.push((next(bodies), body(next(bodies + 1))));
            }
            let mut graph = ConstraintGraph::default();
            graph.build(&joints, &contacts, bodies as usize);
            let all: Vec<(u32, u32)> = joints.iter().chain(&contacts).copied().collect();
            let expected = greedy_by_search(&all);
            let given: Vec<usize> =
                graph.joints.colors.iter().chain(&graph.contacts.colors).map(|&c| c as usize).collect();
            assert_eq!(given, expected, "{bodies} bodies");
            for (i, &(a, b)) in all.iter().enumerate() {
                for (j, &(c, d)) in all.iter().enumerate().take(i) {
                    if given[i] == given[j] && given[i] != OVERFLOW {
                        for x in [a, b] {
                            assert!(x == NO_INDEX || (x != c && x != d), "colour {} shared", given[i]);
                        }
                    }
                }
            }
            assert!(given.contains(&OVERFLOW) || bodies > 5, "few bodies fill the colours");
        }
    }

    /// Grouping is a stable partition within each colour: the bounds stay,
    /// each colour keeps its members, every member taken comes before every
    /// other, and members of one group keep their relative order; the
    /// overflow colour (solved one at a time) is left exactly as it was.
    #[test]
    fn grouping_reorders_only_within_colours() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u32| (rng.next() % u64::from(n)) as u32;
        let contacts: Vec<(u32, u32)> = (0..500).map(|_| (next(6), next(6) + 6)).collect();
        let mut graph = ConstraintGraph::default();
        graph.build(&[], &contacts, 12);
        let order = &graph.contacts;
        assert!(order.starts[OVERFLOW + 1] > order.starts[OVERFLOW], "the overflow colour must fill");
        let first = |i: u32| i.is_multiple_of(3);
        let mut grouped = ColorOrder::default();
        order.grouped(first, &mut grouped);
        assert_eq!(grouped.starts, order.starts);
        let place = |members: &[u32], i: u32| members.iter().position(|&m| m == i).unwrap();
        for color in 0..COLOR_COUNT {
            let before = &order.order[order.starts[color]..order.starts[color + 1]];
            let after = &grouped.order[order.starts[color]..order.starts[color + 1]];
            if color == OVERFLOW {
                assert_eq!(after, before, "the overflow colour moved");
                continue;
            }
            let (mut sorted_before, mut sorted_after) = (before.to_vec(), after.to_vec());
            sorted_before.sort_unstable();
            sorted_after.sort_unstable();
            assert_eq!(sorted_after, sorted_before, "colour {color} lost or gained members");
            let taken = after.iter().take_while(|&&i| first(i)).count();
            assert!(after[taken..].iter().all(|&i| !first(i)), "colour {color}: a member taken comes late");
            for pair in after.windows(2).filter(|w| first(w[0]) == first(w[1])) {
                assert!(place(before, pair[0]) < place(before, pair[1]), "colour {color}: order changed");
            }
        }
    }
}

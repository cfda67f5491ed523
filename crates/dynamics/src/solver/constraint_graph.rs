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

/// Per-colour body bitsets and the resulting orders, reused between steps.
#[derive(Default)]
pub(crate) struct ConstraintGraph {
    /// `bits[c][word]`: bodies taken by colour `c`.
    bits: Vec<Vec<u64>>,
    pub joints: ColorOrder,
    pub contacts: ColorOrder,
}

impl ConstraintGraph {
    /// Colours joints, then contacts, each given by the solver indices of its
    /// two bodies, over `body_count` movable bodies.
    pub fn build(&mut self, joints: &[(u32, u32)], contacts: &[(u32, u32)], body_count: usize) {
        let words = body_count.div_ceil(64);
        self.bits.resize_with(COLOR_COUNT, Vec::new);
        for b in &mut self.bits {
            b.clear();
            b.resize(words, 0);
        }
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
        let immovable = a == NO_INDEX || b == NO_INDEX;
        let (low, high) = if immovable { (1, OVERFLOW) } else { (0, MOVABLE_COLOR_COUNT) };
        let mut pick = |color: usize| {
            let bits = &mut self.bits[color];
            let taken = |i: u32| i != NO_INDEX && bits[(i / 64) as usize] & (1 << (i % 64)) != 0;
            if taken(a) || taken(b) {
                return false;
            }
            for i in [a, b] {
                if i != NO_INDEX {
                    bits[(i / 64) as usize] |= 1 << (i % 64);
                }
            }
            true
        };
        let found =
            if immovable { (low..high).rev().find(|&c| pick(c)) } else { (low..high).find(|&c| pick(c)) };
        found.unwrap_or(OVERFLOW)
    }
}

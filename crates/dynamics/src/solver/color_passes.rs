//! The solver's passes as the team runs them: [`Pass`], one pass over a
//! block of items (bodies, or a colour's constraints), the list of a pass's
//! colours ([`color_passes`]), and [`ColorView`], the constraints and body
//! states as the blocks of a pass share them.

use std::ops::Range;

use super::body_state::States;
use super::constraint_graph::ColorOrder;
use super::constraint_graph::{COLOR_COUNT, OVERFLOW};
use super::contact_bundle::ContactBundle;
use super::contact_solver::ContactSource;
use super::impulses::ContactImpulses;
use super::joints::JointConstraint;
use super::joints::point_bundle::PointJointBundle;
use super::joints::revolute_bundle::RevoluteBundle;
use super::lane_width::{
    BundleBlocks, Eight, eight_contacts, eight_pack_contacts, eight_points, eight_revolutes,
};
use super::lanes::Lanes;
use super::passes::LanePass;
use super::team::{BlockSlice, Team, splits};
use crate::body::NO_INDEX;

/// Adds the passes of `pass` over the colours of `used` (see
/// [`Solver::used_colors`]), in colour order: a pass for each colour whose
/// constraints are shared out in blocks, and one serial pass for each run
/// of consecutive colours that one thread would solve anyway (the overflow
/// colour, and colours too small to split into two blocks).
///
/// Merging such a run changes nothing that is computed: each of its colours
/// would be one block, run whole before the next opens, and the serial pass
/// runs them whole in the same order. It saves a hand-over between threads
/// per colour. A scene with one body touched by many (the tumbler's drum:
/// its contacts take a colour each, fourteen colours of one contact and an
/// overflow of some seventy) otherwise spends most of its passes waiting for
/// one contact to be solved.
pub(crate) fn color_passes(
    team: &mut Team<Pass>,
    used: &[(u8, usize)],
    merge: bool,
    pass: impl Fn(Colors) -> Pass,
) {
    let alone =
        |&(color, items): &(u8, usize)| color as usize == OVERFLOW || !splits(items, CONSTRAINT_BLOCK);
    let mut at = 0;
    while let Some(&(_, items)) = used.get(at) {
        let rest = &used[at..];
        let run =
            if merge { rest.iter().take_while(|c| alone(c)).count() } else { usize::from(alone(&rest[0])) };
        let pass = |len: usize| pass(Colors { first: at as u8, last: (at + len - 1) as u8 });
        if run == 0 {
            team.push(pass(1), items, CONSTRAINT_BLOCK);
            at += 1;
        } else {
            team.push_serial(pass(run), rest[..run].iter().map(|&(_, items)| items).sum());
            at += run;
        }
    }
}

/// The used colours (by place in [`Solver::used_colors`], which lists only
/// colours that hold a constraint) `first..=last` that one pass solves: one
/// colour (a block of its constraints), or a run of colours solved whole,
/// one after the other, in a serial pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Colors {
    first: u8,
    last: u8,
}

/// Bodies integrated per block, at least: a body takes a few nanoseconds.
pub(crate) const BODY_BLOCK: usize = 256;

/// Constraints (bundles, or joints solved alone) per block, at least: a
/// bundle of eight contacts takes some tens of nanoseconds a pass.
pub(crate) const CONSTRAINT_BLOCK: usize = 8;

/// One pass of the solve: what the team runs on a block of items
/// (bodies, or a colour's constraints).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pass {
    Pack(Colors),
    IntegrateVelocities,
    IntegratePositions,
    WarmStart(Colors),
    Solve(Colors),
    Relax(Colors),
    Restitution(Colors),
    GatherImpulses(Colors),
}

/// The constraints and body states as the blocks of a pass share them.
/// A colour's items are its joints solved alone, then its bundles of revolute
/// joints with angular rows (which the one-joint code solved among the joints
/// alone: in the overflow colour, whose constraints share bodies, the order
/// is the one it had), of point joints, then of contacts; `*_starts[c]..*_starts[c + 1]` is
/// colour `c`'s part of each list.
pub(crate) struct ColorView<'a> {
    /// The colours that hold a constraint, each with its count of items.
    pub(crate) used: &'a [(u8, usize)],
    /// The contacts in the order their bundles hold them.
    pub(crate) contact_order: &'a ColorOrder,
    pub(crate) joint_starts: &'a [usize; COLOR_COUNT + 1],
    pub(crate) point_starts: &'a [usize; COLOR_COUNT + 1],
    pub(crate) revolute_starts: &'a [usize; COLOR_COUNT + 1],
    pub(crate) contact_starts: &'a [usize; COLOR_COUNT + 1],
    pub(crate) joints: BlockSlice<'a, JointConstraint>,
    pub(crate) points: BundleBlocks<'a, PointJointBundle, PointJointBundle<Eight>>,
    pub(crate) revolutes: BundleBlocks<'a, RevoluteBundle, RevoluteBundle<Eight>>,
    pub(crate) contacts: BundleBlocks<'a, ContactBundle, ContactBundle<Eight>>,
    pub(crate) states: States<'a>,
    /// Each contact's impulses per point, by constraint (see `contact_impulses`).
    pub(crate) gathered: BlockSlice<'a, ContactImpulses>,
}

impl ColorView<'_> {
    /// The parts of `items` of colour `color` that fall in each list: its
    /// joints solved alone, revolute bundles, point bundles and contact
    /// bundles, as ranges of those lists.
    fn parts(&self, color: u8, items: Range<usize>) -> [Range<usize>; 4] {
        let c = color as usize;
        let mut offset = 0;
        // The part of `items` that falls in colour `c`'s range of one list,
        // whose items follow the `offset` items of the lists before it.
        let mut part = |starts: &[usize; COLOR_COUNT + 1]| {
            let len = starts[c + 1] - starts[c];
            let clip = |i: usize| i.clamp(offset, offset + len) - offset + starts[c];
            let range = clip(items.start)..clip(items.end);
            offset += len;
            range
        };
        [
            part(self.joint_starts),
            part(self.revolute_starts),
            part(self.point_starts),
            part(self.contact_starts),
        ]
    }

    /// Calls `f` on each colour of the pass of `colors` with its part of
    /// `items`: the block itself for a pass of one colour; every item of
    /// each colour in turn for a run of colours, which is a serial pass,
    /// one block holding all of their items.
    fn each_color(&self, colors: Colors, items: Range<usize>, mut f: impl FnMut(u8, Range<usize>)) {
        match &self.used[colors.first as usize..=colors.last as usize] {
            [(color, _)] => f(*color, items),
            run => {
                debug_assert_eq!(items, 0..run.iter().map(|&(_, items)| items).sum());
                run.iter().for_each(|&(color, items)| f(color, 0..items));
            }
        }
    }

    /// The contact bundles among items `items` of the pass of `colors`,
    /// a range of them per colour, each handed to `f`.
    fn each_contact_range(&self, colors: Colors, items: Range<usize>, mut f: impl FnMut(Range<usize>)) {
        self.each_color(colors, items, |color, items| {
            let [_, _, _, contacts] = self.parts(color, items);
            f(contacts);
        });
    }

    /// Gathers the impulses of the contact bundles among items `items` of the
    /// pass of `colors` (see [`gather_contact_impulses`]).
    ///
    /// # Safety
    ///
    /// `items` is one block of a pass of these colours: no other thread
    /// holds any of its bundles meanwhile.
    pub(crate) unsafe fn gather_colors(&self, colors: Colors, items: Range<usize>) {
        let gathered = &self.gathered;
        self.each_contact_range(colors, items, |contacts| {
            // SAFETY: the caller's promise; each contact is one lane of one
            // bundle, so no two blocks gather the same contact.
            unsafe {
                self.contacts.run(
                    contacts,
                    &self.states,
                    |b, _| gather_contact_impulses(b, gathered),
                    |bundles, _, _| bundles.iter().for_each(|b| gather_contact_impulses(b, gathered)),
                )
            };
        });
    }

    /// Fills the contact bundles among items `items` of the pass of
    /// `colors` from `source`, as [`ColorView::run_colors`] runs a pass.
    ///
    /// # Safety
    ///
    /// `items` is one block of a pass of these colours: no other thread
    /// holds any of its bundles meanwhile.
    pub(crate) unsafe fn pack_colors(
        &self,
        colors: Colors,
        items: Range<usize>,
        source: &ContactSource,
        ahead: &impl Fn(u32),
    ) {
        self.each_contact_range(colors, items, |contacts| {
            // SAFETY: the caller's promise.
            unsafe {
                self.contacts.fill(
                    contacts,
                    self.contact_order,
                    self.contact_starts,
                    &|b, members| {
                        source.pack(b, members);
                        b.finish();
                    },
                    &|b, members, encoding| eight_pack_contacts(source, b, members, encoding),
                    ahead,
                )
            };
        });
    }

    /// Runs `joint` on the joints and `pass` on the bundles among items
    /// `items` of the pass of `colors`: a block of one colour's items, or
    /// every item of a run of colours, colour by colour.
    ///
    /// # Safety
    ///
    /// `items` is one block of a pass of these colours: no other thread
    /// holds any of its constraints or their movable bodies meanwhile.
    pub(crate) unsafe fn run_colors<P: LanePass>(
        &self,
        colors: Colors,
        items: Range<usize>,
        joint: impl Fn(&mut JointConstraint, &States),
        pass: &P,
    ) {
        // SAFETY: the caller's promise, for each colour's part of the block.
        self.each_color(colors, items, |color, items| unsafe { self.run(color, items, &joint, pass) });
    }

    /// Runs `joint` on the joints and `pass` on the bundles among items
    /// `items` of colour `color`, in item order.
    ///
    /// # Safety
    ///
    /// `items` is one block of a pass of this colour: no other thread holds
    /// any of its constraints or their movable bodies meanwhile.
    pub(crate) unsafe fn run<P: LanePass>(
        &self,
        color: u8,
        items: Range<usize>,
        joint: impl Fn(&mut JointConstraint, &States),
        pass: &P,
    ) {
        let [joints, revolutes, points, contacts] = self.parts(color, items);
        let states = &self.states;
        // SAFETY: the caller's promise, for each list's share of the block.
        unsafe {
            for j in self.joints.range(joints) {
                joint(j, states);
            }
            self.revolutes.run(
                revolutes,
                states,
                |b, st| pass.revolutes(b, st),
                |b, st, e| eight_revolutes(pass, b, st, e),
            );
            self.points.run(
                points,
                states,
                |b, st| pass.points(b, st),
                |b, st, e| eight_points(pass, b, st, e),
            );
            self.contacts.run(
                contacts,
                states,
                |b, st| pass.contacts(b, st),
                |b, st, e| eight_contacts(pass, b, st, e),
            );
        }
    }
}

/// Puts the impulses of `bundle`'s contacts, per point, in constraint order
/// into `gathered`. Bundles hold their contacts in colour order, which jumps
/// about memory; `gathered` is small enough to stay in the cache.
///
/// # Safety
///
/// No other thread writes the entries of `bundle`'s contacts meanwhile.
#[inline(always)]
unsafe fn gather_contact_impulses<W: Lanes>(
    bundle: &ContactBundle<W>,
    gathered: &BlockSlice<ContactImpulses>,
) {
    for (l, &member) in bundle.bodies.members.as_ref().iter().enumerate() {
        let at = gathered.get(member as usize);
        debug_assert!(at.is_some() || member == NO_INDEX, "contact {member} past the gathered impulses");
        if let Some(at) = at {
            let impulses = ContactImpulses {
                points: [bundle.impulses(l, 0), bundle.impulses(l, 1)],
                rolling: bundle.rolling_impulse(l),
            };
            // SAFETY: in bounds; the caller's promise.
            unsafe { at.write(impulses) };
        }
    }
}

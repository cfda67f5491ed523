//! The persistent pair set and the events that report its changes.
//!
//! The set is stored as adjacency lists, one per proxy id: the partners whose fat
//! boxes overlap that proxy's. A pair can only change when one of its proxies
//! moves, so each step reconciles the lists of the moved proxies alone: the
//! partners it has, against the overlaps the regions report for it now. The
//! difference is the step's events.
//!
//! The lists are flat: one fixed-size slot per proxy id, in one array, holding up
//! to [`INLINE`] partners in place (a cache line). Only a proxy with more
//! partners than that keeps them in a spilled list, and spilled lists are
//! recycled, so a step neither allocates nor chases a pointer per proxy. Short
//! lists are compared with the overlaps found by a direct search (a few
//! comparisons); long ones by marking partners with a per-proxy stamp, which keeps
//! the comparison linear in the number of partners, with no hashing.
//!
//! Events are collected per kind and sorted by key before they are handed out, so
//! the output never depends on the order in which proxies were processed.

use crate::event::PairEvent;
use crate::proxy::Proxy;

/// Partners a slot holds in place: a whole cache line's worth. A box in a
/// pile of boxes its own size has eight or nine partners (its neighbours,
/// diagonal ones included), and with half a line (seven) most of a tumbling
/// pile's lists spilled, each a pointer to follow: 15 took 5 % off the
/// tumbler's and 8 % off the spinner's broad phase.
const INLINE: usize = 15;

/// Lists at most this long (and searches with at most this many overlaps) are
/// compared directly, with a bit mask of the partners found again; longer ones use
/// the stamps. The direct search costs `partners × overlaps` comparisons of
/// integers held in one or two cache lines, cheaper than touching a stamp per
/// partner up to a few dozen.
const DIRECT_COMPARE: usize = 24;

/// One proxy's partner list. With `len <= INLINE` the partners are `items[..len]`;
/// beyond that `items[0]` is the index of the list in [`PairSet::spilled`].
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Slot {
    len: u32,
    items: [u32; INLINE],
}

// A slot is sixteen words, the length first: [`SlotPlaces`] reads it whole.
const _: () = assert!(std::mem::size_of::<Slot>() == 16 * std::mem::size_of::<u32>());

/// Finds where a partner stands in one slot: [`SlotPlaces::of`] compares an
/// id with every place of the slot at once, without a branch per place
/// (whose outcome no predictor could guess).
struct SlotPlaces<'a> {
    /// The slot's sixteen words, loaded once for all the ids compared.
    #[cfg(target_arch = "x86_64")]
    words: [std::arch::x86_64::__m128i; 4],
    #[cfg(target_arch = "x86_64")]
    slot: std::marker::PhantomData<&'a Slot>,
    #[cfg(not(target_arch = "x86_64"))]
    slot: &'a Slot,
}

impl<'a> SlotPlaces<'a> {
    #[inline(always)]
    fn new(slot: &'a Slot) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            let base = (slot as *const Slot).cast::<__m128i>();
            // SAFETY: SSE2 is part of every x86_64 processor; a slot is
            // sixteen `u32`s aligned to 64 bytes (`repr(C, align(64))`,
            // its size checked beside it), so the four loads are aligned
            // and inside it.
            let words = unsafe { std::array::from_fn(|k| _mm_load_si128(base.add(k))) };
            Self { words, slot: std::marker::PhantomData }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Self { slot }
    }

    /// The places of the slot's items that hold `q`, bit `i` for item `i`,
    /// past the list's end as well (the caller masks those off).
    #[inline(always)]
    fn of(&self, q: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is part of every x86_64 processor.
            unsafe {
                let q = _mm_set1_epi32(q as i32);
                let [w0, w1, w2, w3] = self.words.map(|w| _mm_cmpeq_epi32(w, q));
                // Each word's all-ones or zero narrowed to a byte, in order,
                // and the bytes' signs gathered: bit `k` for word `k`.
                let bytes = _mm_packs_epi16(_mm_packs_epi32(w0, w1), _mm_packs_epi32(w2, w3));
                // Word 0 is the length, not an item.
                (_mm_movemask_epi8(bytes) as u32) >> 1
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.slot.items.iter().enumerate().fold(0u32, |m, (i, &p)| m | (u32::from(p == q) << i))
        }
    }
}

/// The partners of proxy `id`, from the slots and the spilled lists.
#[inline]
fn list_of<'a>(slots: &'a [Slot], spilled: &'a [Vec<u32>], id: u32) -> &'a [u32] {
    let slot = &slots[id as usize];
    let len = slot.len as usize;
    if len <= INLINE { &slot.items[..len] } else { &spilled[slot.items[0] as usize] }
}

/// The partner lists of a [`PairSet`], to be read from several threads.
#[derive(Clone, Copy)]
pub(crate) struct PartnerLists<'a> {
    slots: &'a [Slot],
    spilled: &'a [Vec<u32>],
}

impl PartnerLists<'_> {
    /// True when `found` (duplicates allowed) holds exactly the partners of
    /// `id`, so that [`PairSet::reconcile`] would change nothing. Lists longer
    /// than a direct comparison serves are not compared: false.
    pub(crate) fn already_match(&self, id: u32, found: &[u32]) -> bool {
        let slot = &self.slots[id as usize];
        if slot.len as usize > INLINE || found.len() > DIRECT_COMPARE {
            return self.already_match_spilled(id, found);
        }
        // Each overlap is compared with every place of the slot at once, the
        // places past the list's end masked off.
        let live = (1u32 << slot.len) - 1;
        let places_of = SlotPlaces::new(slot);
        let mut seen = 0;
        for &q in found {
            let places = places_of.of(q);
            if places & live == 0 {
                return false;
            }
            seen |= places & live;
        }
        seen == live
    }

    /// [`PartnerLists::already_match`] of a list spilled out of its slot.
    fn already_match_spilled(&self, id: u32, found: &[u32]) -> bool {
        let partners = list_of(self.slots, self.spilled, id);
        if partners.len() > DIRECT_COMPARE || found.len() > DIRECT_COMPARE {
            return false;
        }
        let mut seen = 0u32;
        for &q in found {
            match partners.iter().position(|&p| p == q) {
                Some(i) => seen |= 1 << i,
                None => return false,
            }
        }
        seen.count_ones() as usize == partners.len()
    }
}

/// Adjacency lists, stamps and the event buffers of one step.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct PairSet<K> {
    slots: Vec<Slot>,
    /// The lists of proxies with more than [`INLINE`] partners.
    spilled: Vec<Vec<u32>>,
    /// Indices of `spilled` not in use (their lists empty, capacity kept).
    spill_free: Vec<u32>,
    /// Per proxy id: `stamp` while the partner is known but not yet found again,
    /// `stamp + 1` once found. Older values mean neither.
    marks: Vec<u32>,
    stamp: u32,
    pair_count: usize,
    begins: Vec<(K, K)>,
    ends: Vec<(K, K)>,
    new_partners: Vec<u32>,
}

/// `(a, b)` ordered so that `a < b`.
#[inline]
fn ordered<K: Ord>(a: K, b: K) -> (K, K) {
    if a < b { (a, b) } else { (b, a) }
}

impl<K: Copy + Ord> PairSet<K> {
    pub(crate) fn new() -> Self {
        Self {
            slots: Vec::new(),
            spilled: Vec::new(),
            spill_free: Vec::new(),
            marks: Vec::new(),
            stamp: 0,
            pair_count: 0,
            begins: Vec::new(),
            ends: Vec::new(),
            new_partners: Vec::new(),
        }
    }

    /// Makes room for proxy ids below `slots`.
    pub(crate) fn reserve_slots(&mut self, slots: usize) {
        if self.slots.len() < slots {
            self.slots.resize(slots, Slot::default());
            self.marks.resize(slots, 0);
        }
    }

    /// The number of pairs.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.pair_count
    }

    /// The partners of proxy `id`.
    #[inline]
    pub(crate) fn partners(&self, id: u32) -> &[u32] {
        list_of(&self.slots, &self.spilled, id)
    }

    /// Adds `q` to the partners of `id`.
    fn push(&mut self, id: u32, q: u32) {
        let slot = &mut self.slots[id as usize];
        let len = slot.len as usize;
        if len < INLINE {
            slot.items[len] = q;
        } else if len == INLINE {
            let s = match self.spill_free.pop() {
                Some(s) => s,
                None => {
                    self.spilled.push(Vec::new());
                    (self.spilled.len() - 1) as u32
                }
            };
            let list = &mut self.spilled[s as usize];
            list.extend_from_slice(&slot.items);
            list.push(q);
            slot.items[0] = s;
        } else {
            self.spilled[slot.items[0] as usize].push(q);
        }
        slot.len += 1;
    }

    /// Removes the partner at position `i` of `id`'s list; the last one takes its place.
    fn swap_remove(&mut self, id: u32, i: usize) {
        let slot = &mut self.slots[id as usize];
        let len = slot.len as usize;
        if len <= INLINE {
            slot.items[i] = slot.items[len - 1];
        } else {
            let s = slot.items[0];
            let list = &mut self.spilled[s as usize];
            list.swap_remove(i);
            if list.len() == INLINE {
                slot.items.copy_from_slice(list);
                list.clear();
                self.spill_free.push(s);
            }
        }
        slot.len -= 1;
    }

    /// Removes `id` from the partners of `q` (order does not matter).
    #[inline]
    fn unlink(&mut self, q: u32, id: u32) {
        let slot = &self.slots[q as usize];
        let at = if slot.len as usize <= INLINE {
            let places = SlotPlaces::new(slot).of(id) & ((1u32 << slot.len) - 1);
            (places != 0).then(|| places.trailing_zeros() as usize)
        } else {
            self.partners(q).iter().position(|&p| p == id)
        };
        if let Some(i) = at {
            self.swap_remove(q, i);
        }
    }

    /// Drops every pair of proxy `id` (being removed) and queues their `End` events.
    pub(crate) fn remove_proxy(&mut self, id: u32, proxies: &[Proxy<K>]) {
        let key = proxies[id as usize].key;
        while let Some(&q) = self.partners(id).last() {
            let last = self.partners(id).len() - 1;
            self.swap_remove(id, last);
            self.unlink(q, id);
            self.ends.push(ordered(key, proxies[q as usize].key));
            self.pair_count -= 1;
        }
    }

    /// The partner lists alone, without the keys (the caller's type, which
    /// need not be shared between threads).
    #[inline]
    pub(crate) fn lists(&self) -> PartnerLists<'_> {
        PartnerLists { slots: &self.slots, spilled: &self.spilled }
    }

    /// Brings the pairs of proxy `id` up to date: `found` holds every proxy whose fat
    /// box overlaps its own now (duplicates allowed). Pairs that are new get a
    /// `Begin`, partners not found again get an `End`.
    pub(crate) fn reconcile(&mut self, id: u32, found: &[u32], proxies: &[Proxy<K>]) {
        let known = self.partners(id).len();
        if known <= DIRECT_COMPARE && found.len() <= DIRECT_COMPARE {
            self.reconcile_direct(id, found, proxies);
        } else {
            self.reconcile_stamped(id, found, proxies);
        }
    }

    /// [`PairSet::reconcile`] for short lists: each overlap is searched for in the
    /// list, and a bit mask records which partners were found again.
    fn reconcile_direct(&mut self, id: u32, found: &[u32], proxies: &[Proxy<K>]) {
        let key = proxies[id as usize].key;
        let slot = self.slots[id as usize];
        let known = self.partners(id).len();
        // A list in its slot is searched with every place at once; a
        // spilled one is copied out once, the search below running for
        // every overlap found.
        let in_slot = slot.len as usize <= INLINE;
        let places_of = SlotPlaces::new(&slot);
        let live = (1u32 << known) - 1;
        let mut copy = [0u32; DIRECT_COMPARE];
        if !in_slot {
            copy[..known].copy_from_slice(self.partners(id));
        }
        let places = |q: u32| match in_slot {
            true => places_of.of(q) & live,
            false => copy[..known].iter().position(|&p| p == q).map_or(0, |i| 1 << i),
        };
        let mut seen = 0u32;
        self.new_partners.clear();
        for &q in found {
            let at = places(q);
            if at != 0 {
                seen |= at;
            } else if !self.new_partners.contains(&q) {
                self.new_partners.push(q);
                self.begins.push(ordered(key, proxies[q as usize].key));
            }
        }
        if seen.count_ones() as usize != known {
            // From the back, so that the partner a removal moves into place `i`
            // (the last one) has already been kept.
            for i in (0..known).rev() {
                if seen & (1 << i) == 0 {
                    let q = self.partners(id)[i];
                    self.swap_remove(id, i);
                    self.unlink(q, id);
                    self.ends.push(ordered(key, proxies[q as usize].key));
                    self.pair_count -= 1;
                }
            }
        }
        self.link_new_partners(id);
    }

    /// [`PairSet::reconcile`] for long lists, with stamps.
    fn reconcile_stamped(&mut self, id: u32, found: &[u32], proxies: &[Proxy<K>]) {
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp < 2 {
            // Wrapped: clear old stamps so none can be mistaken for a new one.
            self.marks.fill(0);
            self.stamp = 2;
        }
        let (known, seen) = (self.stamp, self.stamp + 1);
        let key = proxies[id as usize].key;
        for &q in list_of(&self.slots, &self.spilled, id) {
            self.marks[q as usize] = known;
        }
        self.new_partners.clear();
        for &q in found {
            let mark = &mut self.marks[q as usize];
            if *mark == seen {
                continue;
            }
            if *mark != known {
                self.new_partners.push(q);
                self.begins.push(ordered(key, proxies[q as usize].key));
            }
            *mark = seen;
        }
        for i in (0..self.partners(id).len()).rev() {
            let q = self.partners(id)[i];
            if self.marks[q as usize] == known {
                self.swap_remove(id, i);
                self.unlink(q, id);
                self.ends.push(ordered(key, proxies[q as usize].key));
                self.pair_count -= 1;
            }
        }
        self.link_new_partners(id);
    }

    /// Adds the pairs of `id` with every proxy in `new_partners`.
    fn link_new_partners(&mut self, id: u32) {
        let new_partners = std::mem::take(&mut self.new_partners);
        for &q in &new_partners {
            self.push(id, q);
            self.push(q, id);
        }
        self.pair_count += new_partners.len();
        self.new_partners = new_partners;
    }

    /// Writes the set to columns of `c` (see `to_columns.rs`). Of each slot's
    /// items only those read are written: its partners, or the index of its
    /// spilled list; the others are left over from longer lists and never read.
    #[cfg(feature = "serde")]
    pub(crate) fn write_columns(&self, c: &mut crate::state_columns::StateColumns<K>) {
        c.ints().extend(self.slots.iter().map(|slot| u64::from(slot.len)));
        let items = c.ints();
        for slot in &self.slots {
            let used = if slot.len as usize <= INLINE { slot.len as usize } else { 1 };
            items.extend(slot.items[..used].iter().map(|&v| u64::from(v)));
        }
        c.ints().extend(self.spilled.iter().map(|list| list.len() as u64));
        c.ints().extend(self.spilled.iter().flatten().map(|&v| u64::from(v)));
        c.ints().extend(self.spill_free.iter().map(|&v| u64::from(v)));
        c.ints().extend(self.marks.iter().map(|&v| u64::from(v)));
        c.ints().extend([u64::from(self.stamp), self.pair_count as u64]);
        for pairs in [&self.begins, &self.ends] {
            c.keys().extend(pairs.iter().map(|p| p.0));
            c.keys().extend(pairs.iter().map(|p| p.1));
        }
        c.ints().extend(self.new_partners.iter().map(|&v| u64::from(v)));
    }

    /// Reads the set [`PairSet::write_columns`] wrote into this empty one.
    #[cfg(feature = "serde")]
    pub(crate) fn read_columns(&mut self, c: &mut crate::state_columns::ColumnsIn<K>) -> Result<(), String> {
        let lens = c.u32s()?;
        let items = c.u32s()?;
        let mut at = 0usize;
        self.slots = Vec::with_capacity(lens.len());
        for len in lens {
            let used = if len as usize <= INLINE { len as usize } else { 1 };
            let taken = items.get(at..at + used).ok_or("a pair list is missing")?;
            let mut slot = Slot { len, items: [0; INLINE] };
            slot.items[..used].copy_from_slice(taken);
            self.slots.push(slot);
            at += used;
        }
        if at != items.len() {
            return Err("pair items left over after the last list".into());
        }
        let (spilled_lens, spilled_items) = (c.ints()?, c.u32s()?);
        let mut at = 0usize;
        self.spilled = Vec::with_capacity(spilled_lens.len());
        for len in spilled_lens {
            let list = usize::try_from(len).ok().and_then(|len| spilled_items.get(at..at.checked_add(len)?));
            let list = list.ok_or("a spilled pair list is missing")?;
            at += list.len();
            self.spilled.push(list.to_vec());
        }
        if at != spilled_items.len() {
            return Err("spilled pairs left over after the last list".into());
        }
        self.spill_free = c.u32s()?;
        self.marks = c.u32s()?;
        let [stamp, pair_count] = c.ints()?[..] else { return Err("the pair count is missing".into()) };
        self.stamp = crate::state_columns::narrow(stamp)?;
        self.pair_count = usize::try_from(pair_count).map_err(|_| "a pair count out of range")?;
        for pairs in [&mut self.begins, &mut self.ends] {
            let (a, b) = (c.keys()?, c.keys()?);
            if a.len() != b.len() {
                return Err("a pair event without its second key".into());
            }
            *pairs = a.into_iter().zip(b).collect();
        }
        self.new_partners = c.u32s()?;
        Ok(())
    }

    /// Checks the lists against `proxies` without trusting any index (for
    /// tests, and for a set read back from serde): a slot per proxy, spilled
    /// lists owned by one slot each, partners that are live, distinct and
    /// listed both ways, and the pair count.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn check(&self, proxies: &[Proxy<K>]) -> Result<(), String> {
        if self.slots.len() != proxies.len() || self.marks.len() != proxies.len() {
            return Err(format!("{} pair slots for {} proxies", self.slots.len(), proxies.len()));
        }
        let mut owner = vec![None; self.spilled.len()];
        for (id, slot) in self.slots.iter().enumerate() {
            let len = slot.len as usize;
            if len > INLINE {
                let s = slot.items[0] as usize;
                match owner.get_mut(s) {
                    Some(o @ None) if self.spilled[s].len() == len => *o = Some(id),
                    _ => return Err(format!("proxy {id}'s spilled list {s} is missing, shared or short")),
                }
            }
        }
        for &s in &self.spill_free {
            if owner.get(s as usize) != Some(&None) || !self.spilled[s as usize].is_empty() {
                return Err(format!("free spilled list {s} is in use or missing"));
            }
        }
        let mut total = 0usize;
        for id in 0..proxies.len() as u32 {
            let partners = self.partners(id);
            total += partners.len();
            if !proxies[id as usize].live && !partners.is_empty() {
                return Err(format!("free slot {id} is still paired"));
            }
            for (i, &q) in partners.iter().enumerate() {
                let live = proxies.get(q as usize).is_some_and(|p| p.live);
                if q == id || !live || partners[..i].contains(&q) || !self.partners(q).contains(&id) {
                    return Err(format!("pair ({id}, {q}) is not a pair of two live proxies both list"));
                }
            }
        }
        if self.pair_count.checked_mul(2) != Some(total) {
            return Err(format!("{} pairs counted, {} listed", self.pair_count, total / 2));
        }
        Ok(())
    }

    /// Replaces the contents of `events` with this step's events: every `End`, then
    /// every `Begin`, each group sorted by key pair.
    pub(crate) fn drain_events(&mut self, events: &mut Vec<PairEvent<K>>) {
        self.ends.sort_unstable();
        self.begins.sort_unstable();
        events.clear();
        events.extend(self.ends.drain(..).map(|(a, b)| PairEvent::End(a, b)));
        events.extend(self.begins.drain(..).map(|(a, b)| PairEvent::Begin(a, b)));
        // Scratch of the last mover reconciled, which movers passed over
        // would leave from an earlier one: emptied, so that what is stored
        // between steps depends on no such choice.
        self.new_partners.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `already_match` says yes exactly when the overlaps found, as a
        /// set, are the partners listed: checked against a sort of both, on
        /// lists short and spilled, with slots that held longer lists before
        /// (stale places past their ends) and overlaps found twice. The
        /// overlaps are the partners, the partners less one, the partners and
        /// one more, or any numbers.
        #[test]
        fn already_match_compares_as_sets(
            partners in proptest::collection::btree_set(1u32..40, 0..30),
            dropped in 0usize..20,
            mode in 0u32..4,
            twice in proptest::collection::vec(any::<bool>(), 30),
            other in 1u32..40,
            random in proptest::collection::vec(1u32..40, 0..30),
        ) {
            let mut set = PairSet::<u32>::new();
            set.reserve_slots(40);
            let partners: Vec<u32> = partners.into_iter().collect();
            for &q in &partners {
                set.push(0, q);
            }
            let kept = partners.len() - dropped.min(partners.len());
            while set.partners(0).len() > kept {
                set.swap_remove(0, 0);
            }
            let listed = set.partners(0).to_vec();
            let mut found: Vec<u32> = listed.iter().zip(&twice).flat_map(|(&q, &t)| {
                if t { vec![q, q] } else { vec![q] }
            }).collect();
            match mode {
                0 => {}
                1 => found.retain(|&q| Some(&q) != listed.first()),
                2 => found.insert(found.len() / 2, other),
                _ => found = random,
            }
            let sorted = |list: &[u32]| {
                let mut list = list.to_vec();
                list.sort_unstable();
                list.dedup();
                list
            };
            let same = sorted(&found) == sorted(&listed);
            let compared = listed.len() <= DIRECT_COMPARE && found.len() <= DIRECT_COMPARE;
            prop_assert_eq!(set.lists().already_match(0, &found), same && compared);
        }
    }
}

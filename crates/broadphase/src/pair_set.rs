//! The persistent pair set and the events that report its changes.
//!
//! The set is stored as adjacency lists, one per proxy id: the partners whose fat
//! boxes overlap that proxy's. A pair can only change when one of its proxies
//! moves, so each step reconciles the lists of the moved proxies alone: the
//! partners it has, against the overlaps the regions report for it now. The
//! difference is the step's events. Marking partners with a per-proxy stamp makes
//! the comparison linear in the number of partners, with no hashing.
//!
//! Events are collected per kind and sorted by key before they are handed out, so
//! the output never depends on the order in which proxies were processed.

use crate::event::PairEvent;
use crate::proxy::Proxy;

/// Adjacency lists, stamps and the event buffers of one step.
#[derive(Clone, Debug)]
pub(crate) struct PairSet<K> {
    adjacency: Vec<Vec<u32>>,
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
            adjacency: Vec::new(),
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
        if self.adjacency.len() < slots {
            self.adjacency.resize_with(slots, Vec::new);
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
        &self.adjacency[id as usize]
    }

    /// Drops every pair of proxy `id` (being removed) and queues their `End` events.
    pub(crate) fn remove_proxy(&mut self, id: u32, proxies: &[Proxy<K>]) {
        let mut list = std::mem::take(&mut self.adjacency[id as usize]);
        let key = proxies[id as usize].key;
        for &q in &list {
            unlink(&mut self.adjacency[q as usize], id);
            self.ends.push(ordered(key, proxies[q as usize].key));
        }
        self.pair_count -= list.len();
        list.clear();
        self.adjacency[id as usize] = list;
    }

    /// Brings the pairs of proxy `id` up to date: `found` holds every proxy whose fat
    /// box overlaps its own now (duplicates allowed). Pairs that are new get a
    /// `Begin`, partners not found again get an `End`.
    pub(crate) fn reconcile(&mut self, id: u32, found: &[u32], proxies: &[Proxy<K>]) {
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp < 2 {
            // Wrapped: clear old stamps so none can be mistaken for a new one.
            self.marks.fill(0);
            self.stamp = 2;
        }
        let (known, seen) = (self.stamp, self.stamp + 1);
        let key = proxies[id as usize].key;
        let mut list = std::mem::take(&mut self.adjacency[id as usize]);
        for &q in &list {
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
        let before = list.len();
        list.retain(|&q| {
            if self.marks[q as usize] == known {
                unlink(&mut self.adjacency[q as usize], id);
                self.ends.push(ordered(key, proxies[q as usize].key));
                false
            } else {
                true
            }
        });
        self.pair_count -= before - list.len();
        for &q in &self.new_partners {
            list.push(q);
            self.adjacency[q as usize].push(id);
        }
        self.pair_count += self.new_partners.len();
        self.adjacency[id as usize] = list;
    }

    /// Replaces the contents of `events` with this step's events: every `End`, then
    /// every `Begin`, each group sorted by key pair.
    pub(crate) fn drain_events(&mut self, events: &mut Vec<PairEvent<K>>) {
        self.ends.sort_unstable();
        self.begins.sort_unstable();
        events.clear();
        events.extend(self.ends.drain(..).map(|(a, b)| PairEvent::End(a, b)));
        events.extend(self.begins.drain(..).map(|(a, b)| PairEvent::Begin(a, b)));
    }
}

/// Removes `id` from a partner list (order does not matter).
#[inline]
fn unlink(list: &mut Vec<u32>, id: u32) {
    if let Some(i) = list.iter().position(|&q| q == id) {
        list.swap_remove(i);
    }
}

//! The islands written in bulk: every island's number of members, its flags
//! (awake, maybe split), all members' keys end to end, and the free island
//! slots.

use super::packing::{KeyList, Packer, Unpacker, read_keys};
use crate::island::Islands;

/// Flags of an island.
const AWAKE: u64 = 1;
const MAYBE_SPLIT: u64 = 2;

/// Writes `islands`.
pub(crate) fn write(islands: &Islands, packer: &mut Packer) {
    packer.ints(islands.parts().map(|(members, _, _)| members.len() as u64));
    packer.ints(
        islands
            .parts()
            .map(|(_, awake, split)| (u64::from(awake) * AWAKE) | (u64::from(split) * MAYBE_SPLIT)),
    );
    let mut members = KeyList::default();
    for (island, _, _) in islands.parts() {
        members.extend(island);
    }
    members.write(packer);
    packer.ints(islands.free().iter().map(|&i| u64::from(i)));
}

/// Reads the islands [`write()`] wrote. Their members are checked against the
/// bodies later, with the rest of the state.
pub(crate) fn read(unpacker: &mut Unpacker<'_>, world: crate::WorldTag) -> Result<Islands, String> {
    let lens = unpacker.all_ints()?;
    let flags = unpacker.all_ints()?;
    let members = read_keys(unpacker, world)?;
    let free = unpacker.all_ints()?;
    if flags.len() != lens.len() || flags.iter().any(|&f| f > (AWAKE | MAYBE_SPLIT)) {
        return Err("the islands' flags do not match them".into());
    }
    let mut at = 0usize;
    let mut parts = Vec::with_capacity(lens.len());
    for (&len, &f) in lens.iter().zip(flags.iter()) {
        let end =
            usize::try_from(len).ok().and_then(|len| at.checked_add(len)).filter(|&end| end <= members.len());
        let end = end.ok_or("an island lists more members than written")?;
        parts.push((members[at..end].to_vec(), f & AWAKE != 0, f & MAYBE_SPLIT != 0));
        at = end;
    }
    if at != members.len() {
        return Err("island members left over after the last island".into());
    }
    let free = free.iter().map(|&i| u32::try_from(i).map_err(|_| format!("a free island slot of {i}")));
    Ok(Islands::from_parts(parts.into_iter(), free.collect::<Result<_, _>>()?, world))
}

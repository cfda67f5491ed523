//! The broad-phase structures written in bulk: each one's state as the
//! columns of numbers it gives ([`SweepAndPrune::to_columns`]), packed as
//! every other column of a snapshot is.
//!
//! First an integer column with the number of key, integer and real columns
//! and the length of each real column, then the key columns (each two integer
//! columns, see [`write_keys`]), the integer columns and the real columns.

use lamina_broadphase::{StateColumns, SweepAndPrune};

use super::packing::{Packer, Unpacker, read_keys, write_keys};
use crate::broad_phase::ProxyKey;

/// Writes `sap`.
pub(crate) fn write(sap: &SweepAndPrune<ProxyKey>, packer: &mut Packer) {
    let columns = sap.to_columns();
    let counts = [columns.keys.len(), columns.ints.len(), columns.reals.len()];
    packer.ints(counts.into_iter().chain(columns.reals.iter().map(Vec::len)).map(|n| n as u64));
    for keys in &columns.keys {
        write_keys(packer, keys.iter().copied());
    }
    for ints in &columns.ints {
        packer.ints(ints.iter().copied());
    }
    for reals in &columns.reals {
        packer.reals(reals);
    }
}

/// Reads the columns [`write()`] wrote: `Err` for columns that do not decode.
/// The structure they make is built and checked by [`read()`]'s caller through
/// [`SweepAndPrune::from_columns`].
pub(crate) fn read(
    unpacker: &mut Unpacker<'_>,
    world: crate::WorldTag,
) -> Result<StateColumns<ProxyKey>, String> {
    let counts = unpacker.all_ints()?;
    let [keys, ints, reals, ref lengths @ ..] = counts[..] else {
        return Err("the broad phase's column counts are missing".into());
    };
    if lengths.len() as u64 != reals
        || [keys, ints, reals].iter().any(|&n| n > unpacker.columns_left() as u64)
    {
        return Err("the broad phase's column counts do not fit the payload".into());
    }
    let mut columns = StateColumns::default();
    for _ in 0..keys {
        columns.keys.push(read_keys(unpacker, world)?);
    }
    for _ in 0..ints {
        columns.ints.push(unpacker.all_ints()?.into_vec());
    }
    for &len in lengths {
        let len = usize::try_from(len).map_err(|_| "a column longer than the payload")?;
        columns.reals.push(unpacker.reals(len)?.into_vec());
    }
    Ok(columns)
}

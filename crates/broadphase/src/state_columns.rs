//! The format of a broad phase's state as columns of numbers: [`StateColumns`],
//! written a column at a time, [`ColumnsIn`], read back a column at a time,
//! and the checked conversions of the values read. Each part of the broad
//! phase writes and reads its own columns (`to_columns.rs` orders them).

use lamina_geometry::Real;

/// The state of a [`SweepAndPrune`](crate::SweepAndPrune) as columns of numbers
/// ([`SweepAndPrune::to_columns`](crate::SweepAndPrune::to_columns), [`SweepAndPrune::from_columns`](crate::SweepAndPrune::from_columns)).
#[derive(Clone, Debug, PartialEq)]
pub struct StateColumns<K> {
    /// Columns of keys.
    pub keys: Vec<Vec<K>>,
    /// Columns of integers (signed ones as their two's complement).
    pub ints: Vec<Vec<u64>>,
    /// Columns of reals.
    pub reals: Vec<Vec<Real>>,
}

impl<K> Default for StateColumns<K> {
    fn default() -> Self {
        StateColumns { keys: Vec::new(), ints: Vec::new(), reals: Vec::new() }
    }
}

impl<K> StateColumns<K> {
    /// Starts a new column of keys.
    pub(crate) fn keys(&mut self) -> &mut Vec<K> {
        self.keys.push(Vec::new());
        self.keys.last_mut().expect("just pushed")
    }

    /// Starts a new column of integers.
    pub(crate) fn ints(&mut self) -> &mut Vec<u64> {
        self.ints.push(Vec::new());
        self.ints.last_mut().expect("just pushed")
    }

    /// Starts a new column of reals.
    pub(crate) fn reals(&mut self) -> &mut Vec<Real> {
        self.reals.push(Vec::new());
        self.reals.last_mut().expect("just pushed")
    }
}

/// [`StateColumns`] being read back, a column at a time.
pub(crate) struct ColumnsIn<K> {
    keys: std::vec::IntoIter<Vec<K>>,
    ints: std::vec::IntoIter<Vec<u64>>,
    reals: std::vec::IntoIter<Vec<Real>>,
}

impl<K> ColumnsIn<K> {
    pub(crate) fn new(columns: StateColumns<K>) -> Self {
        ColumnsIn {
            keys: columns.keys.into_iter(),
            ints: columns.ints.into_iter(),
            reals: columns.reals.into_iter(),
        }
    }

    /// The next column of keys.
    pub(crate) fn keys(&mut self) -> Result<Vec<K>, String> {
        self.keys.next().ok_or_else(|| "a column of keys is missing".into())
    }

    /// The next column of integers.
    pub(crate) fn ints(&mut self) -> Result<Vec<u64>, String> {
        self.ints.next().ok_or_else(|| "a column of integers is missing".into())
    }

    /// The next column of integers, each of which must fit a `u32`.
    pub(crate) fn u32s(&mut self) -> Result<Vec<u32>, String> {
        let column = self.ints()?;
        if let Some(&v) = column.iter().find(|&&v| v > u64::from(u32::MAX)) {
            return Err(format!("{v} does not fit 32 bits"));
        }
        Ok(column.iter().map(|&v| v as u32).collect())
    }

    /// The next column of reals.
    pub(crate) fn reals(&mut self) -> Result<Vec<Real>, String> {
        self.reals.next().ok_or_else(|| "a column of reals is missing".into())
    }

    /// That every column was read.
    pub(crate) fn finish(mut self) -> Result<(), String> {
        if self.keys.next().is_some() || self.ints.next().is_some() || self.reals.next().is_some() {
            return Err("columns left over".into());
        }
        Ok(())
    }
}

/// `v` as a `u32`.
pub(crate) fn narrow(v: u64) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("{v} does not fit 32 bits"))
}

/// `v` as an `i32`, from its two's complement.
pub(crate) fn signed(v: u64) -> Result<i32, String> {
    i32::try_from(v as i64).map_err(|_| format!("{} does not fit 32 bits", v as i64))
}

/// `v` as a flag.
pub(crate) fn flag(v: u64) -> Result<bool, String> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(format!("a flag of {v}")),
    }
}

/// Exactly `n` values of `column`, or why not.
pub(crate) fn exactly<T>(column: Vec<T>, n: usize, what: &str) -> Result<Vec<T>, String> {
    if column.len() == n {
        Ok(column)
    } else {
        Err(format!("{} {what} where {n} were expected", column.len()))
    }
}

//! Lamina's thread pool for Python: the pool every `World.step` and every
//! vector environment runs on. It is built on first use with rayon's default
//! size (one thread per core, or `RAYON_NUM_THREADS`) and may be rebuilt with
//! another size by `lamina2d.set_num_threads`; results do not depend on it.

use std::sync::{Arc, RwLock};

use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::errors::world_error;

static POOL: RwLock<Option<Arc<ThreadPool>>> = RwLock::new(None);

/// The pool, built on first use.
pub fn pool() -> Arc<ThreadPool> {
    if let Some(pool) = POOL.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return pool.clone();
    }
    let mut slot = POOL.write().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert_with(|| Arc::new(build(0).expect("rayon builds a pool of its default size"))).clone()
}

/// Runs `work` on the pool.
pub fn install<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    pool().install(work)
}

fn build(threads: usize) -> Result<ThreadPool, rayon::ThreadPoolBuildError> {
    ThreadPoolBuilder::new().num_threads(threads).thread_name(|i| format!("lamina-{i}")).build()
}

/// Sets how many threads Lamina steps worlds and vector environments on
/// (0: one per core). Results are bit for bit the same for any count.
#[pyfunction]
pub fn set_num_threads(threads: &Bound<'_, PyAny>) -> PyResult<()> {
    let threads: i64 = crate::convert::integer("threads", threads)?;
    if !(0..=1024).contains(&threads) {
        return Err(world_error(format!("threads must be between 0 and 1024, got {threads}")));
    }
    let pool = build(threads as usize)
        .map_err(|e| world_error(format!("could not start {threads} threads: {e}")))?;
    *POOL.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(pool));
    Ok(())
}

/// How many threads Lamina's pool has.
#[pyfunction]
pub fn num_threads() -> usize {
    pool().current_num_threads()
}

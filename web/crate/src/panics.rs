//! What a panic leaves behind. wasm32 has no unwinding on stable Rust, so a
//! panic aborts: the call traps (`RuntimeError: unreachable` in
//! JavaScript) with the world possibly half-changed. The hook installed at
//! start records the panic's message first; the JavaScript half, catching
//! the trap, reads it with [`take_panic`] and refuses every later call on
//! that world with it (and never drops it: its memory is leaked, as its
//! state may break the invariants a drop relies on).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the hook when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|last| {
            if let Ok(mut last) = last.try_borrow_mut() {
                *last = Some(message);
            }
        });
    }));
}

/// The message of the last panic, once.
#[wasm_bindgen(js_name = takePanic)]
pub fn take_panic() -> Option<String> {
    LAST_PANIC.with(|last| last.try_borrow_mut().ok().and_then(|mut last| last.take()))
}

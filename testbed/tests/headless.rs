//! The testbed's command line, headless: a scene file given with
//! `--scene-file`, or to `--scene` by a name ending in `.json`, is stepped and
//! drawn to a PNG without a window; a file that cannot be read ends the run
//! with an error naming it and exit status 2, not a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The engine's example scene file.
fn example_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/scene_files/pyramid_and_pendulum.json")
}

/// A path in the temporary folder, unique to this test process.
fn temporary(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("lamina-testbed-cli-{}-{name}", std::process::id()))
}

/// Runs the testbed with `args`.
fn testbed(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lamina-testbed")).args(args).output().expect("the testbed runs")
}

#[test]
fn a_scene_file_renders_headless_by_either_flag() {
    let file = example_file();
    for (flag, name) in [("--scene-file", "by-flag.png"), ("--scene", "by-name.png")] {
        let png = temporary(name);
        let output = testbed(&[
            flag.as_ref(),
            file.as_os_str(),
            "--frames".as_ref(),
            "10".as_ref(),
            "--size".as_ref(),
            "160x100".as_ref(),
            "--screenshot".as_ref(),
            png.as_os_str(),
        ]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{flag}: {output:?}");
        assert!(stdout.starts_with("pyramid_and_pendulum.json: 10 steps, 18 bodies, 1 joints"), "{stdout}");
        let written = std::fs::read(&png).expect("the picture is written");
        let _ = std::fs::remove_file(&png);
        assert!(written.starts_with(b"\x89PNG\r\n\x1a\n"), "{flag}: not a PNG");
    }
}

#[test]
fn a_scene_file_that_cannot_be_read_is_an_error() {
    let missing = temporary("missing.json");
    let png = temporary("missing.png");
    let output = testbed(&[
        "--scene-file".as_ref(),
        missing.as_os_str(),
        "--frames".as_ref(),
        "1".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr.contains("cannot read") && stderr.contains("missing.json"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!png.exists());
}

//! The testbed used as a person uses it, under a real X server: open it on
//! the vertical stacks, drag the top box of the 1 m column sideways with the
//! mouse, pause, step once, take a screenshot, and check from the state file
//! the window writes every frame and from the picture that the box moved,
//! that one step while paused is exactly one step, and that the scene was
//! drawn. Then open it on the character mover, hold D, and check from the
//! screenshots that the character walked right at its walking speed.
//!
//! It needs `DISPLAY` and `xdotool`, which `tests/e2e.sh` provides (it
//! installs Xvfb and xdotool when they are missing, starts the server and
//! runs these tests one at a time), hence `#[ignore]` for a plain `cargo test`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The box dragged: the top of the 1 m column of `vertical_stack`, whose
/// centre starts at (−12, 19.5) m.
const BOX: (f32, f32) = (-12.0, 19.5);
/// How far right the mouse drags it, window pixels.
const DRAG_PIXELS: f32 = 160.0;
/// Longest wait for anything the window should do.
const TIMEOUT: Duration = Duration::from_secs(60);

/// The testbed's window, killed when the test ends however it ends.
struct Testbed {
    child: Child,
    dir: PathBuf,
}

impl Drop for Testbed {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Testbed {
    fn start(dir: &Path) -> Testbed {
        Testbed::start_with(dir, &["--scene", "vertical_stack", "--threads", "1"])
    }

    /// The testbed opened with `args`, writing its state and screenshots into `dir`.
    fn start_with(dir: &Path, args: &[&str]) -> Testbed {
        let log = std::fs::File::create(dir.join("testbed.log")).expect("a log file");
        let child = Command::new(env!("CARGO_BIN_EXE_lamina-testbed"))
            .args(args)
            .arg("--report")
            .arg(dir.join("state.json"))
            .arg("--screenshot-dir")
            .arg(dir)
            .stdout(log.try_clone().expect("a log file"))
            .stderr(log)
            .spawn()
            .expect("the testbed starts");
        Testbed { child, dir: dir.to_path_buf() }
    }

    /// The latest state file, once there is one.
    fn state(&self) -> String {
        std::fs::read_to_string(self.dir.join("state.json")).unwrap_or_default()
    }

    /// Waits until `ready` holds for the state file; panics with `what` and the last state otherwise.
    fn wait_for(&mut self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(self.dir.join("testbed.log")).unwrap_or_default();
                panic!("the testbed exited ({status}) while waiting for {what}:\n{log}");
            }
            let state = self.state();
            if ready(&state) {
                return state;
            }
            assert!(start.elapsed() < TIMEOUT, "timed out waiting for {what}; last state:\n{state}");
            sleep(Duration::from_millis(50));
        }
    }
}

/// The value of `"key": value` in the state file (keys are unique in it).
fn field<'a>(state: &'a str, key: &str) -> Option<&'a str> {
    let at = state.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &state[at..];
    let end = if rest.starts_with('[') || rest.starts_with('{') {
        let close = if rest.starts_with('[') { ']' } else { '}' };
        rest.find(close)? + 1
    } else {
        rest.find([',', '\n', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim())
}

fn number(state: &str, key: &str) -> Option<f64> {
    field(state, key)?.parse().ok()
}

/// The numbers of a `[x, y]` field.
fn pair(state: &str, key: &str) -> Option<(f32, f32)> {
    let text = field(state, key)?.trim_matches(['[', ']']);
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn xdotool(args: &[&str]) {
    let status = Command::new("xdotool").args(args).stdout(Stdio::null()).status().expect("xdotool runs");
    assert!(status.success(), "xdotool {args:?} failed");
}

/// Presses `key` in the window. Keys sent to a window by id arrive as
/// synthetic events, which winit ignores; so the window takes the focus and
/// the key goes through the XTEST extension, as a keyboard's would.
fn press(window: &str, key: &str) {
    xdotool(&["windowfocus", "--sync", window]);
    xdotool(&["key", key]);
}

/// The testbed's window id, once it is shown.
fn window_id() -> String {
    let output = Command::new("timeout")
        .args(["60", "xdotool", "search", "--sync", "--onlyvisible", "--name", "Lamina testbed"])
        .output()
        .expect("xdotool runs");
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines().next().map(str::to_string).expect("the testbed's window appears")
}

/// Where world point `p` shows in the window, from the camera in the state.
fn window_pixel(state: &str, p: (f32, f32)) -> (f32, f32) {
    let centre = pair(state, "centre").expect("the camera's centre");
    let scale = number(state, "pixels_per_metre").expect("the camera's scale") as f32;
    let origin = pair(state, "origin").expect("the view's origin");
    let size = pair(state, "size").expect("the view's size");
    let ppp = number(state, "pixels_per_point").expect("pixels per point") as f32;
    let x = origin.0 + 0.5 * size.0 + (p.0 - centre.0) * scale;
    let y = origin.1 + 0.5 * size.1 - (p.1 - centre.1) * scale;
    (x * ppp, y * ppp)
}

/// The share of the scene's pixels (the view's rectangle in the state) that
/// are not its background.
fn drawn_share(png: &str, state: &str) -> f64 {
    let pixmap = tiny_skia::Pixmap::load_png(png).expect("a PNG screenshot");
    let ppp = number(state, "pixels_per_point").expect("pixels per point") as f32;
    let (origin, size) = (pair(state, "origin").expect("an origin"), pair(state, "size").expect("a size"));
    let (x0, y0) = ((origin.0 * ppp) as u32, (origin.1 * ppp) as u32);
    let (x1, y1) = (((origin.0 + size.0) * ppp) as u32, ((origin.1 + size.1) * ppp) as u32);
    let (x1, y1) = (x1.min(pixmap.width()), y1.min(pixmap.height()));
    let (mut drawn, mut all) = (0usize, 0usize);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = pixmap.pixel(x, y).expect("a pixel inside the picture");
            drawn += usize::from((p.red(), p.green(), p.blue()) != (250, 250, 248));
            all += 1;
        }
    }
    assert!(all > 0, "the view is empty: {origin:?} {size:?}");
    drawn as f64 / all as f64
}

/// Where the character of `character_mover` is drawn in the screenshot at
/// `png`: the world x of the middle of its red outline (the scene's only
/// red; the awake bodies are orange).
fn character_x(png: &str, state: &str) -> f32 {
    let pixmap = tiny_skia::Pixmap::load_png(png).expect("a PNG screenshot");
    let ppp = number(state, "pixels_per_point").expect("pixels per point") as f32;
    let (origin, size) = (pair(state, "origin").expect("an origin"), pair(state, "size").expect("a size"));
    let (x0, y0) = ((origin.0 * ppp) as u32, (origin.1 * ppp) as u32);
    let (x1, y1) = (((origin.0 + size.0) * ppp) as u32, ((origin.1 + size.1) * ppp) as u32);
    let (mut sum, mut count) = (0.0f64, 0usize);
    for y in y0..y1.min(pixmap.height()) {
        for x in x0..x1.min(pixmap.width()) {
            let p = pixmap.pixel(x, y).expect("a pixel inside the picture");
            let (r, g, b) = (i32::from(p.red()), i32::from(p.green()), i32::from(p.blue()));
            if r > 150 && r - g > 90 && (g - b).abs() < 30 {
                sum += f64::from(x);
                count += 1;
            }
        }
    }
    assert!(count > 10, "no character drawn in {png}");
    let centre = pair(state, "centre").expect("the camera's centre");
    let scale = number(state, "pixels_per_metre").expect("the camera's scale") as f32;
    let pixel = (sum / count as f64) as f32 / ppp;
    centre.0 + (pixel - origin.0 - 0.5 * size.0) / scale
}

/// Takes the app's screenshot number `n`; returns its path and the state then.
fn screenshot(testbed: &mut Testbed, window: &str, n: f64) -> (String, String) {
    press(window, "F12");
    let shot = testbed.wait_for("the screenshot", |s| number(s, "screenshots").is_some_and(|k| k >= n));
    let png = field(&shot, "last_screenshot").expect("a screenshot path").trim_matches('"').to_string();
    (png, shot)
}

/// The character scene steered from the keyboard: opened paused, run until
/// the character has landed, then D held down while the scene runs for a
/// while (Space to run, Space to pause, D still held): the character is
/// drawn that much further right, the walking speed (3 m/s) times the
/// steps taken, within a few pixels.
#[test]
#[ignore = "needs an X server and xdotool: run tests/e2e.sh"]
fn steer_the_character_with_the_keys_under_x() {
    let dir = std::env::temp_dir().join(format!("lamina-testbed-e2e-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a work folder");
    let args = ["--scene", "character_mover", "--threads", "1", "--paused"];
    let mut testbed = Testbed::start_with(&dir, &args);
    let window = window_id();
    testbed.wait_for("the window's state", |s| field(s, "paused") == Some("true"));
    // The character starts a little in the air: let it land (the script
    // stands it still for its first second), then pause.
    press(&window, "space");
    testbed.wait_for("the scene to run", |s| number(s, "steps").is_some_and(|n| n >= 20.0));
    press(&window, "space");
    testbed.wait_for("the pause", |s| field(s, "paused") == Some("true"));
    sleep(Duration::from_millis(300));
    let landed = number(&testbed.state(), "steps").expect("a step count");
    assert!(landed < 60.0, "the script walked on: {landed} steps");
    let (before_png, before) = screenshot(&mut testbed, &window, 1.0);
    let start = character_x(&before_png, &before);

    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["keydown", "d"]);
    sleep(Duration::from_millis(200));
    press(&window, "space");
    testbed.wait_for("the scene to run", |s| number(s, "steps").is_some_and(|n| n >= landed + 40.0));
    press(&window, "space");
    testbed.wait_for("the pause", |s| field(s, "paused") == Some("true"));
    sleep(Duration::from_millis(300));
    xdotool(&["keyup", "d"]);
    let steps = number(&testbed.state(), "steps").expect("a step count") - landed;
    let (after_png, after) = screenshot(&mut testbed, &window, 2.0);
    let end = character_x(&after_png, &after);
    let scale = number(&after, "pixels_per_metre").expect("the camera's scale") as f32;
    // Two steps at 1 and 2 m/s get it up to speed: 0.05 m less.
    let wanted = 3.0 * steps as f32 / 60.0 - 0.05;
    println!(
        "e2e: D held for {steps} steps: the character from x = {start:.2} to {end:.2} m, wanted +{wanted:.2} m"
    );
    assert!(
        ((end - start) - wanted).abs() < 4.0 / scale,
        "D moved the character {:.2} m in {steps} steps, wanted {wanted:.2} m",
        end - start
    );

    drop(testbed);
    let _ = std::fs::remove_dir_all(&dir);
    println!("e2e: passed (D held walked the character {:.2} m in {steps} steps)", end - start);
}

#[test]
#[ignore = "needs an X server and xdotool: run tests/e2e.sh"]
fn drag_pause_step_and_screenshot_under_x() {
    let dir = std::env::temp_dir().join(format!("lamina-testbed-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a work folder");
    let mut testbed = Testbed::start(&dir);
    let window = window_id();
    let running = testbed.wait_for("the scene to run", |s| number(s, "steps").is_some_and(|n| n >= 30.0));
    println!("e2e: window {window} open, scene running");

    // Drag the top box to the right, in small moves as a hand would.
    let (x, y) = window_pixel(&running, BOX);
    let at = |dx: f32| [format!("{}", (x + dx).round()), format!("{}", y.round())];
    let [x0, y0] = at(0.0);
    xdotool(&["mousemove", "--window", &window, &x0, &y0]);
    sleep(Duration::from_millis(300));
    xdotool(&["mousedown", "1"]);
    for i in 1..=16 {
        let [xi, yi] = at(DRAG_PIXELS * i as f32 / 16.0);
        xdotool(&["mousemove", "--window", &window, &xi, &yi]);
        sleep(Duration::from_millis(60));
    }
    let held = testbed.wait_for("the box to be held", |s| field(s, "active") == Some("true"));
    sleep(Duration::from_millis(800));
    xdotool(&["mouseup", "1"]);
    let dropped = testbed.wait_for("the box to be let go", |s| field(s, "active") == Some("false"));
    let start = pair(&dropped, "start").expect("the drag's start");
    let end = pair(&dropped, "position").expect("the dragged box's position");
    let moved = number(&dropped, "distance").expect("the drag's distance");
    let scale = number(&held, "pixels_per_metre").expect("the camera's scale");
    println!(
        "e2e: dragged the box from ({:.2}, {:.2}) to ({:.2}, {:.2}) m, {moved:.2} m",
        start.0, start.1, end.0, end.1
    );
    assert!(
        (start.0 - BOX.0).abs() < 0.5 && (start.1 - BOX.1).abs() < 0.5,
        "grabbed the wrong body: {start:?}"
    );
    let wanted = 0.5 * f64::from(DRAG_PIXELS) / scale;
    assert!(
        moved > wanted && end.0 > start.0,
        "the box moved {moved:.2} m, wanted over {wanted:.2} m to the right"
    );

    // Pause; the step count must then stand still.
    press(&window, "space");
    let paused = testbed.wait_for("the pause", |s| field(s, "paused") == Some("true"));
    sleep(Duration::from_millis(500));
    let before = number(&testbed.state(), "steps").expect("a step count");
    assert!(number(&paused, "steps").is_some_and(|n| n <= before));
    sleep(Duration::from_millis(500));
    assert_eq!(number(&testbed.state(), "steps"), Some(before), "steps advanced while paused");

    // One step while paused: exactly one.
    press(&window, "s");
    testbed.wait_for("the single step", |s| number(s, "steps").is_some_and(|n| n > before));
    sleep(Duration::from_millis(700));
    let after = testbed.state();
    assert_eq!(number(&after, "steps"), Some(before + 1.0), "a single step took {after}");
    assert_eq!(field(&after, "paused"), Some("true"));
    println!("e2e: paused at step {before}, one step to {}", before + 1.0);

    // The app's own screenshot shows the scene.
    press(&window, "F12");
    let shot = testbed.wait_for("the screenshot", |s| number(s, "screenshots").is_some_and(|n| n >= 1.0));
    let png = field(&shot, "last_screenshot").expect("a screenshot path").trim_matches('"').to_string();
    let share = drawn_share(&png, &shot);
    println!("e2e: screenshot {png}: {:.1} % of the scene's pixels drawn", 100.0 * share);
    assert!(share > 0.02, "the scene in the screenshot is nearly blank: {:.2} % drawn", 100.0 * share);

    drop(testbed);
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "e2e: passed (drag {moved:.2} m, one step while paused, screenshot {:.1} % drawn)",
        100.0 * share
    );
}

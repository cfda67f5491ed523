//! The character mover allocates nothing once its buffer of planes has
//! grown: a counting global allocator watches the heap while a capsule is
//! collided, solved, cast and clipped against every kind of shape, frame after
//! frame. Only the allocations of the thread that runs the loop are
//! counted: the test harness's own threads may allocate meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use lamina_dynamics::{
    BodyDesc, ChainDesc, ColliderDesc, CollisionPlane, QueryFilter, World, WorldSettings, clip_vector,
    solve_planes,
};
use lamina_geometry::{Point, Real, Shape, Vec2};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the thread whose allocations are counted.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_mover_loop_does_not_allocate() {
    let mut w = World::new(WorldSettings::default());
    let g = w.add_body(BodyDesc::fixed());
    let floor: Vec<Point> = (0..=20).map(|i| Point::new(10.0 - i as Real, 0.0)).collect();
    w.add_chain(g, ChainDesc::new(&floor)).unwrap();
    let shapes = [
        Shape::rectangle(0.5, 0.5),
        Shape::circle(0.4),
        Shape::capsule(Point::new(-0.3, 0.0), Point::new(0.3, 0.0), 0.2),
        Shape::segment(Point::new(-0.5, 0.0), Point::new(0.5, 0.3)),
        Shape::ellipse(0.6, 0.3),
    ];
    for (i, shape) in shapes.into_iter().enumerate() {
        let b = w.add_body(BodyDesc::fixed().translation(1.5 + 1.2 * i as Real, 0.3));
        w.add_collider(b, ColliderDesc::new(shape)).unwrap();
    }
    let filter = QueryFilter::default();
    let mut planes: Vec<CollisionPlane> = Vec::with_capacity(16);
    let mut position = Point::new(0.0, 0.8);
    let mut velocity = Vec2::new(3.0, -1.0);
    let mut frame = |planes: &mut Vec<CollisionPlane>| {
        let h = Vec2::new(0.0, 0.5);
        let target = position + velocity / 60.0;
        for _ in 0..5 {
            let mover = Shape::capsule(position - h, position + h, 0.3);
            w.collide_mover(&mover, &filter, planes);
            let s = solve_planes(target - position, planes);
            let f = w.cast_mover(&mover, s.translation, &filter);
            position += s.translation * f;
        }
        velocity = clip_vector(velocity, planes);
        velocity.x = 3.0;
    };
    for _ in 0..10 {
        frame(&mut planes);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTED.with(|c| c.set(true));
    for _ in 0..200 {
        frame(&mut planes);
    }
    COUNTED.with(|c| c.set(false));
    let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(count, 0, "the mover loop allocated {count} times");
}

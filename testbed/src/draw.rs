//! What the testbed draws of a world, in world coordinates, behind one small
//! trait: the window paints through egui's painter, headless mode into a
//! tiny-skia pixmap, and both show the same picture.
//!
//! Shapes are coloured by their body's state (awake, asleep, fixed, kinematic,
//! bullet, held by the mouse); the debug layers add contact points with their
//! normals and impulses, joints with their anchors, axes and limits, bounding
//! boxes, the broad phase's enlarged boxes, islands and centres of mass.

use std::collections::BTreeMap;

use lamina2d::prelude::*;

/// A colour, straight (not premultiplied) RGBA.
pub type Rgba = [u8; 4];

/// Where a canvas draws to, in world coordinates (metres, y up); the back-end
/// maps them to pixels. Line widths are in pixels so that they read the same
/// at any zoom.
pub trait Canvas {
    /// A filled convex polygon with its outline; `fill` may be transparent.
    fn polygon(&mut self, points: &[Point], fill: Rgba, outline: Rgba);
    /// A filled circle with its outline.
    fn circle(&mut self, centre: Point, radius: Real, fill: Rgba, outline: Rgba);
    /// A line `width` pixels wide.
    fn segment(&mut self, a: Point, b: Point, width: f32, color: Rgba);
    /// A dot `radius` pixels wide, whatever the zoom.
    fn dot(&mut self, at: Point, radius: f32, color: Rgba);
    /// How many metres a pixel spans, for marks that keep their size on screen.
    fn metres_per_pixel(&self) -> Real;
}

/// A line over the world, such as a lidar beam.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub a: Point,
    pub b: Point,
    pub color: Rgba,
}

/// Which debug layers are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    pub shapes: bool,
    pub contacts: bool,
    pub impulses: bool,
    pub joints: bool,
    pub aabbs: bool,
    pub broad_phase: bool,
    pub islands: bool,
    pub centres: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            shapes: true,
            contacts: false,
            impulses: false,
            joints: true,
            aabbs: false,
            broad_phase: false,
            islands: false,
            centres: false,
        }
    }
}

impl Layers {
    /// The layers' names, as `--layers` takes them.
    pub const NAMES: [&'static str; 8] =
        ["shapes", "contacts", "impulses", "joints", "aabbs", "broad_phase", "islands", "centres"];

    /// The flag of the layer called `name`.
    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "shapes" => &mut self.shapes,
            "contacts" => &mut self.contacts,
            "impulses" => &mut self.impulses,
            "joints" => &mut self.joints,
            "aabbs" => &mut self.aabbs,
            "broad_phase" => &mut self.broad_phase,
            "islands" => &mut self.islands,
            "centres" => &mut self.centres,
            _ => return None,
        })
    }

    /// Exactly the layers named in a comma-separated list.
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut layers = Self { shapes: false, joints: false, ..Self::default() };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let flag = layers
                .flag(name)
                .ok_or_else(|| format!("no layer {name:?}; layers: {}", Self::NAMES.join(", ")))?;
            *flag = true;
        }
        Ok(layers)
    }
}

/// The window's and the pictures' background.
pub const BACKGROUND: Rgba = [250, 250, 248, 255];

/// Fill and outline of a body's shapes by its state.
pub mod palette {
    use super::Rgba;

    pub const FIXED: (Rgba, Rgba) = ([150, 150, 150, 255], [70, 70, 70, 255]);
    pub const KINEMATIC: (Rgba, Rgba) = ([120, 200, 120, 255], [40, 100, 40, 255]);
    pub const AWAKE: (Rgba, Rgba) = ([242, 165, 65, 255], [120, 70, 15, 255]);
    pub const ASLEEP: (Rgba, Rgba) = ([143, 179, 217, 255], [50, 80, 120, 255]);
    pub const BULLET: (Rgba, Rgba) = ([180, 120, 220, 255], [80, 40, 120, 255]);
    pub const HELD: (Rgba, Rgba) = ([214, 69, 69, 255], [110, 25, 25, 255]);
    pub const CONTACT: Rgba = [30, 120, 220, 255];
    pub const NORMAL: Rgba = [30, 160, 60, 255];
    pub const IMPULSE: Rgba = [220, 40, 40, 255];
    pub const JOINT: Rgba = [40, 150, 160, 255];
    pub const LIMIT: Rgba = [200, 60, 160, 255];
    pub const AABB: Rgba = [200, 60, 60, 140];
    pub const PROXY: Rgba = [60, 60, 200, 120];
    /// The broad phase's grid regions: faint, behind the boxes they hold.
    pub const REGION: Rgba = [40, 150, 90, 110];
    pub const CENTRE: Rgba = [20, 20, 20, 255];
    pub const MOUSE: Rgba = [214, 69, 69, 255];
}

/// Directions sampled around a smooth or rounded shape's outline.
const OUTLINE_SAMPLES: usize = 40;
/// Length of a contact normal, pixels.
const NORMAL_PIXELS: Real = 18.0;
/// Metres of line per N·s of impulse, before the on-screen scale.
const IMPULSE_SCALE: Real = 0.5;

/// Draws `world` with the chosen layers; `held` is the body the mouse holds,
/// `mouse` the line from its grip to the pointer, `overlay` the scene's own lines.
pub fn draw_world(
    canvas: &mut dyn Canvas,
    world: &World,
    layers: &Layers,
    held: Option<BodyKey>,
    mouse: Option<(Point, Point)>,
    overlay: &[Line],
) {
    if layers.shapes {
        draw_shapes(canvas, world, held);
    }
    if layers.islands {
        draw_islands(canvas, world);
    }
    if layers.aabbs || layers.broad_phase {
        draw_boxes(canvas, world, layers);
    }
    if layers.joints {
        draw_joints(canvas, world);
    }
    if layers.contacts || layers.impulses {
        draw_contacts(canvas, world, layers);
    }
    if layers.centres {
        draw_centres(canvas, world);
    }
    for line in overlay {
        canvas.segment(line.a, line.b, 1.0, line.color);
    }
    if let Some((grip, pointer)) = mouse {
        canvas.segment(grip, pointer, 1.5, palette::MOUSE);
        canvas.dot(grip, 3.0, palette::MOUSE);
        canvas.dot(pointer, 3.0, palette::MOUSE);
    }
}

/// The fill and outline of `body`'s shapes.
pub fn colours_of(body: &Body, held: bool) -> (Rgba, Rgba) {
    match body.kind() {
        BodyKind::Fixed => palette::FIXED,
        BodyKind::Kinematic => palette::KINEMATIC,
        BodyKind::Dynamic if held => palette::HELD,
        BodyKind::Dynamic if body.is_sleeping() => palette::ASLEEP,
        BodyKind::Dynamic if body.is_bullet() => palette::BULLET,
        BodyKind::Dynamic => palette::AWAKE,
    }
}

fn draw_shapes(canvas: &mut dyn Canvas, world: &World, held: Option<BodyKey>) {
    for (_, collider) in world.colliders() {
        let Some(body) = world.body(collider.body()) else { continue };
        let pose = body.position() * collider.local_pose();
        let (fill, outline) = colours_of(body, held == Some(collider.body()));
        // Sensors are drawn see-through.
        let fill = if collider.is_sensor() { [fill[0], fill[1], fill[2], 60] } else { fill };
        draw_shape(canvas, collider.shape(), &pose, fill, outline);
    }
}

/// One shape at `pose`: circles with a spoke that shows them turn, segments
/// as lines, everything else as its outline polygon.
fn draw_shape(canvas: &mut dyn Canvas, shape: &Shape, pose: &Isometry, fill: Rgba, outline: Rgba) {
    match shape {
        Shape::Circle(c) => {
            let centre = pose * Point::origin();
            canvas.circle(centre, c.radius, fill, outline);
            canvas.segment(centre, pose * Point::new(c.radius, 0.0), 1.0, outline);
        }
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            canvas.segment(pose * s.a, pose * s.b, 1.5, outline);
        }
        Shape::Polygon(p) if p.radius() == 0.0 => {
            let points: Vec<Point> = p.vertices().iter().map(|v| pose * v).collect();
            canvas.polygon(&points, fill, outline);
        }
        // Rounded polygons, capsules and ellipses: sample the support function.
        _ => {
            let points: Vec<Point> = (0..OUTLINE_SAMPLES)
                .map(|i| {
                    let a = i as f64 / OUTLINE_SAMPLES as f64 * std::f64::consts::TAU;
                    shape.support_point_world(pose, &Vec2::new(a.cos() as Real, a.sin() as Real))
                })
                .collect();
            canvas.polygon(&points, fill, outline);
        }
    }
}

/// The outline of a box.
fn draw_aabb(canvas: &mut dyn Canvas, aabb: &Aabb, color: Rgba) {
    let (lo, hi) = (aabb.mins, aabb.maxs);
    let corners = [lo, Point::new(hi.x, lo.y), hi, Point::new(lo.x, hi.y)];
    for i in 0..4 {
        canvas.segment(corners[i], corners[(i + 1) % 4], 1.0, color);
    }
}

fn draw_boxes(canvas: &mut dyn Canvas, world: &World, layers: &Layers) {
    if layers.broad_phase {
        for region in world.broad_phase_regions() {
            draw_aabb(canvas, &region.bounds, palette::REGION);
        }
    }
    for (_, collider) in world.colliders() {
        if layers.broad_phase {
            draw_aabb(canvas, &collider.proxy_aabb(), palette::PROXY);
        }
        if layers.aabbs {
            draw_aabb(canvas, &collider.aabb(), palette::AABB);
        }
    }
}

/// Each island as the box around its bodies' colliders, in a colour of its
/// own; sleeping islands dashed into a lighter tone.
fn draw_islands(canvas: &mut dyn Canvas, world: &World) {
    let mut islands: BTreeMap<u32, (Aabb, bool)> = BTreeMap::new();
    for (_, body) in world.bodies() {
        let Some(island) = body.island() else { continue };
        for aabb in body.colliders().iter().filter_map(|&c| world.collider(c)).map(|c| c.aabb()) {
            islands
                .entry(island)
                .and_modify(|(b, _)| *b = merged(b, &aabb))
                .or_insert((aabb, body.is_sleeping()));
        }
    }
    for (id, (aabb, asleep)) in islands {
        let [r, g, b] = island_colour(id);
        draw_aabb(canvas, &aabb, [r, g, b, if asleep { 90 } else { 230 }]);
    }
}

fn merged(a: &Aabb, b: &Aabb) -> Aabb {
    Aabb::new(
        Point::new(a.mins.x.min(b.mins.x), a.mins.y.min(b.mins.y)),
        Point::new(a.maxs.x.max(b.maxs.x), a.maxs.y.max(b.maxs.y)),
    )
}

/// A colour per island id, spread around the hue circle by the golden angle.
fn island_colour(id: u32) -> [u8; 3] {
    let hue = (id as f32 * 0.618_034).fract() * 6.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let channel = |v: f32| (40.0 + 170.0 * v) as u8;
    [channel(r), channel(g), channel(b)]
}

/// Touching contact points, their normals (a fixed length on screen) and
/// their normal impulses (a length that grows with the impulse).
fn draw_contacts(canvas: &mut dyn Canvas, world: &World, layers: &Layers) {
    let pixel = canvas.metres_per_pixel();
    for contact in world.contacts().filter(|c| c.is_touching()) {
        let normal = contact.normal();
        for point in contact.points() {
            if layers.contacts {
                canvas.dot(point.point, 2.5, palette::CONTACT);
                canvas.segment(
                    point.point,
                    point.point + normal * NORMAL_PIXELS * pixel,
                    1.0,
                    palette::NORMAL,
                );
            }
            if layers.impulses && point.normal_impulse > 0.0 {
                let length = point.normal_impulse * IMPULSE_SCALE;
                canvas.segment(point.point, point.point + normal * length, 2.0, palette::IMPULSE);
            }
        }
    }
}

/// Each joint: a line from each movable body's centre to its anchor, the anchors,
/// and for sliders their axis between the limits, for hinges the limits' two
/// directions and where B points now.
fn draw_joints(canvas: &mut dyn Canvas, world: &World) {
    let pixel = canvas.metres_per_pixel();
    for (_, joint) in world.joints() {
        let pose_of = |key: BodyKey| world.body(key).map_or(Isometry::identity(), |b| b.position());
        // From movable bodies only: a ground that holds many joints would be a star of lines.
        let centre_of = |key: BodyKey| {
            world.body(key).filter(|b| b.kind() != BodyKind::Fixed).map(|b| b.center_of_mass())
        };
        let (frame_a, frame_b) =
            (pose_of(joint.body_a()) * joint.frame_a(), pose_of(joint.body_b()) * joint.frame_b());
        let (anchor_a, anchor_b) =
            (Point::from(frame_a.translation.vector), Point::from(frame_b.translation.vector));
        if joint.kind() == JointKind::Mouse {
            canvas.segment(anchor_b, joint.target(), 1.0, palette::MOUSE);
            canvas.dot(joint.target(), 3.0, palette::MOUSE);
        } else if let Some(a) = centre_of(joint.body_a()) {
            canvas.segment(a, anchor_a, 1.0, palette::JOINT);
        }
        if let Some(b) = centre_of(joint.body_b()) {
            canvas.segment(b, anchor_b, 1.0, palette::JOINT);
        }
        canvas.segment(anchor_a, anchor_b, 1.0, palette::JOINT);
        canvas.dot(anchor_a, 3.0, palette::JOINT);
        canvas.dot(anchor_b, 3.0, palette::JOINT);
        let axis = frame_a.rotation * Vec2::x();
        match (joint.kind(), joint.desc().limits) {
            (JointKind::Prismatic | JointKind::Wheel, limits) => {
                let (lower, upper) = limits.unwrap_or((-40.0 * pixel, 40.0 * pixel));
                let (lo, hi) = (anchor_a + axis * lower, anchor_a + axis * upper);
                canvas.segment(lo, hi, 1.0, palette::LIMIT);
                if limits.is_some() {
                    let across = Vec2::new(-axis.y, axis.x) * 5.0 * pixel;
                    canvas.segment(lo - across, lo + across, 1.5, palette::LIMIT);
                    canvas.segment(hi - across, hi + across, 1.5, palette::LIMIT);
                }
            }
            (JointKind::Revolute, Some((lower, upper))) => {
                let reach = 30.0 * pixel;
                let towards = |angle: Real| anchor_a + Rotation::new(angle) * axis * reach;
                canvas.segment(anchor_a, towards(lower), 1.5, palette::LIMIT);
                canvas.segment(anchor_a, towards(upper), 1.5, palette::LIMIT);
                canvas.segment(
                    anchor_b,
                    anchor_b + frame_b.rotation * Vec2::x() * reach,
                    1.0,
                    palette::JOINT,
                );
            }
            _ => {}
        }
    }
}

/// A small cross at each movable body's centre of mass.
fn draw_centres(canvas: &mut dyn Canvas, world: &World) {
    let arm = 5.0 * canvas.metres_per_pixel();
    for (_, body) in world.bodies().filter(|(_, b)| b.kind() != BodyKind::Fixed) {
        let c = body.center_of_mass();
        canvas.segment(c - Vec2::new(arm, 0.0), c + Vec2::new(arm, 0.0), 1.5, palette::CENTRE);
        canvas.segment(c - Vec2::new(0.0, arm), c + Vec2::new(0.0, arm), 1.5, palette::CENTRE);
    }
}

/// The box around every collider, for framing a scene that names no view;
/// `None` for an empty world.
pub fn world_bounds(world: &World) -> Option<Aabb> {
    world.colliders().map(|(_, c)| c.aabb()).reduce(|a, b| merged(&a, &b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what is drawn.
    #[derive(Default)]
    struct Recorder {
        polygons: usize,
        circles: usize,
        segments: usize,
        dots: usize,
    }

    impl Canvas for Recorder {
        fn polygon(&mut self, _: &[Point], _: Rgba, _: Rgba) {
            self.polygons += 1;
        }
        fn circle(&mut self, _: Point, _: Real, _: Rgba, _: Rgba) {
            self.circles += 1;
        }
        fn segment(&mut self, _: Point, _: Point, _: f32, _: Rgba) {
            self.segments += 1;
        }
        fn dot(&mut self, _: Point, _: f32, _: Rgba) {
            self.dots += 1;
        }
        fn metres_per_pixel(&self) -> Real {
            0.01
        }
    }

    #[test]
    fn layers_parse_by_name() {
        let layers = Layers::parse("shapes, contacts,islands").unwrap();
        assert!(layers.shapes && layers.contacts && layers.islands && !layers.joints);
        assert!(Layers::parse("shapes,colours").unwrap_err().contains("colours"));
        let mut all = Layers::parse(&Layers::NAMES.join(",")).unwrap();
        assert!(Layers::NAMES.iter().all(|n| *all.flag(n).unwrap()));
    }

    #[test]
    fn every_layer_draws_something_on_a_resting_hinged_pair() {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
        let a = world.add_body(BodyDesc::dynamic().translation(0.0, 1.0));
        world.add_collider(a, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
        let b = world.add_body(BodyDesc::dynamic().translation(1.0, 1.0));
        world.add_collider(b, ColliderDesc::new(Shape::circle(0.5))).unwrap();
        world.add_joint(JointDesc::revolute(a, b, Point::new(0.5, 1.0)).limits(-0.5, 0.5)).unwrap();
        for _ in 0..10 {
            world.step(1.0 / 60.0).unwrap();
        }
        let everything = Layers {
            shapes: true,
            contacts: true,
            impulses: true,
            joints: true,
            aabbs: true,
            broad_phase: true,
            islands: true,
            centres: true,
        };
        let mut canvas = Recorder::default();
        draw_world(&mut canvas, &world, &everything, None, None, &[]);
        assert_eq!((canvas.polygons, canvas.circles), (2, 1));
        assert!(canvas.dots >= 4 && canvas.segments > 20);
        let bounds = world_bounds(&world).unwrap();
        assert!(bounds.mins.x <= -5.0 && bounds.maxs.y >= 1.5);
    }
}

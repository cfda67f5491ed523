// Types of the npm package lamina2d (web/js/lamina2d.js and web/js/node.js).
// Units are metres, kilograms, seconds and radians; a vector is [x, y].

/** A vector or point, [x, y]. */
export type Vec2 = [number, number];

/** Thrown for every refused call; the message names the bad value. The world is unchanged. */
export class LaminaError extends Error {
    constructor(message: string, options?: { cause?: unknown });
}

/**
 * Loads the compiled module (browsers; in Node the import has loaded it): from
 * `input`, or from the build beside the package that the runtime runs (with
 * SIMD where WebAssembly SIMD validates). Resolves when the API is ready.
 */
export default function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Loads the compiled module synchronously. */
export function initSync(module: BufferSource | WebAssembly.Module, build?: string): void;
/** True when the runtime runs WebAssembly SIMD. */
export function simdSupported(): boolean;
/** The wasm file of a build: "lamina2d_simd.wasm" or "lamina2d_nosimd.wasm". */
export function wasmFileName(simd?: boolean): string;
/** Which build is loaded: "simd", "nosimd", "given" (by init's argument), or null. */
export function loadedBuild(): string | null;

/** The engine's WorldSettings, by camelCase name; every field is optional. */
export interface WorldOptions {
    gravity?: Vec2;
    substeps?: number;
    contactHertz?: number;
    contactDampingRatio?: number;
    contactPushMaxVelocity?: number;
    jointHertz?: number;
    jointDampingRatio?: number;
    restitutionThreshold?: number;
    speculativeDistance?: number;
    sleepLinearVelocity?: number;
    timeToSleep?: number;
    maxLinearSpeed?: number;
    hitEventThreshold?: number;
    enableSleep?: boolean;
    enableWarmStarting?: boolean;
    enableContinuous?: boolean;
    keepEvents?: boolean;
}

export type BodyKind = "dynamic" | "fixed" | "kinematic";

export interface BodyOptions {
    position?: Vec2;
    angle?: number;
    linearVelocity?: Vec2;
    angularVelocity?: number;
    bullet?: boolean;
    linearDamping?: number;
    angularDamping?: number;
    gravityScale?: number;
    fixedRotation?: boolean;
    canSleep?: boolean;
    awake?: boolean;
}

export interface ColliderOptions {
    /** kg/m², default 1. */
    density?: number;
    /** Default 0.6. */
    friction?: number;
    /** Default 0. */
    restitution?: number;
    /** m/s: the surface carries what rests on it (a conveyor belt). */
    tangentSpeed?: number;
    /** Slows round shapes rolling on the collider. */
    rollingResistance?: number;
    sensor?: boolean;
    localPosition?: Vec2;
    localAngle?: number;
    category?: number;
    mask?: number;
    group?: number;
}

export interface JointOptions {
    collideConnected?: boolean;
}
export interface SpringOptions {
    /** Spring stiffness, Hz. */
    hertz?: number;
    dampingRatio?: number;
}
export interface LimitOptions {
    lower?: number;
    upper?: number;
}
export interface RevoluteJointOptions extends JointOptions, SpringOptions, LimitOptions {
    anchor: Vec2;
    motorSpeed?: number;
    maxMotorTorque?: number;
}
export interface PrismaticJointOptions extends JointOptions, SpringOptions, LimitOptions {
    anchor: Vec2;
    axis: Vec2;
    motorSpeed?: number;
    maxMotorForce?: number;
}
export interface WeldJointOptions extends JointOptions, SpringOptions {
    anchor: Vec2;
}
export interface DistanceJointOptions extends JointOptions, SpringOptions, LimitOptions {
    anchorA: Vec2;
    anchorB: Vec2;
    motorSpeed?: number;
    maxMotorForce?: number;
}
export interface WheelJointOptions extends JointOptions, SpringOptions, LimitOptions {
    anchor: Vec2;
    axis: Vec2;
    motorSpeed?: number;
    maxMotorTorque?: number;
}
export interface MotorJointOptions extends JointOptions {
    maxForce?: number;
    maxTorque?: number;
}
export interface MouseJointOptions extends SpringOptions {
    target: Vec2;
    maxForce?: number;
}

export interface QueryOptions {
    excludeBody?: Body;
    excludeSensors?: boolean;
}

export interface RayHit {
    body: Body;
    collider: Collider;
    point: Vec2;
    normal: Vec2;
    /** The fraction of the ray's translation at which it meets the collider. */
    fraction: number;
}

/** Two colliders began or stopped touching. */
export interface ContactEvent {
    type: "begin" | "end";
    colliderA: Collider;
    colliderB: Collider;
}
/** A collider entered or left a sensor. */
export interface SensorEvent {
    type: "begin" | "end";
    sensor: Collider;
    visitor: Collider;
}
/** Two colliders began touching faster than the hitEventThreshold setting. */
export interface HitEvent {
    colliderA: Collider;
    colliderB: Collider;
    /** Where they touched, world frame. */
    point: Vec2;
    /** From colliderA to colliderB. */
    normal: Vec2;
    /** How fast the surfaces approached along the normal, m/s. */
    approachSpeed: number;
}

export class World {
    constructor(options?: WorldOptions);
    /** The world saved by snapshot(); it steps on bit for bit as the original. */
    static restore(bytes: Uint8Array): World;
    snapshot(): Uint8Array;
    clone(): World;
    /** Releases the world's memory; every later call throws LaminaError. */
    free(): void;
    [Symbol.dispose](): void;

    step(dt: number): void;
    gravity: Vec2;
    readonly bodyCount: number;
    readonly jointCount: number;
    /** The Rust state_hash: equal to a native build's for the same calls. */
    stateHash(): bigint;
    wakeAll(): void;

    addBody(kind: BodyKind, options?: BodyOptions): Body;
    removeBody(body: Body): void;
    body(key: bigint): Body;
    bodies(): Body[];
    addCollider(body: Body, shape: Shape, options?: ColliderOptions): Collider;
    removeCollider(collider: Collider): void;

    addRevoluteJoint(a: Body, b: Body, options: RevoluteJointOptions): Joint;
    addPrismaticJoint(a: Body, b: Body, options: PrismaticJointOptions): Joint;
    addWeldJoint(a: Body, b: Body, options: WeldJointOptions): Joint;
    addDistanceJoint(a: Body, b: Body, options: DistanceJointOptions): Joint;
    addWheelJoint(a: Body, b: Body, options: WheelJointOptions): Joint;
    addMotorJoint(a: Body, b: Body, options?: MotorJointOptions): Joint;
    addMouseJoint(body: Body, options: MouseJointOptions): Joint;
    removeJoint(joint: Joint): void;

    castRay(origin: Vec2, translation: Vec2, options?: QueryOptions): RayHit | null;
    queryAabb(lower: Vec2, upper: Vec2, options?: QueryOptions): Collider[];
    queryPoint(point: Vec2, options?: QueryOptions): Collider[];

    /** The last step's events (or those since clearEvents(), with keepEvents), in order. */
    contactEvents(): ContactEvent[];
    sensorEvents(): SensorEvent[];
    hitEvents(): HitEvent[];
    clearEvents(): void;

    /**
     * x0, y0, x1, y1, ... of every body in key order: a view on the wasm memory,
     * valid until the next call into the module (which may grow the memory and
     * detach it, or refill it). Copy it with slice() to keep it.
     */
    positions(): Float32Array;
    /** Every body's angle in key order; a view as positions()'. */
    angles(): Float32Array;
    /** vx, vy, angular velocity of every body in key order; a view as positions()'. */
    velocities(): Float32Array;
}

export class Body {
    readonly world: World;
    readonly key: bigint;
    position: Vec2;
    angle: number;
    linearVelocity: Vec2;
    angularVelocity: number;
    readonly mass: number;
    readonly inertia: number;
    readonly kind: BodyKind;
    readonly isAwake: boolean;
    readonly isBullet: boolean;
    readonly isValid: boolean;
    applyForce(force: Vec2, point?: Vec2): void;
    applyImpulse(impulse: Vec2, point?: Vec2): void;
}

export class Collider {
    readonly world: World;
    readonly key: bigint;
    readonly body: Body;
    readonly density: number;
    readonly friction: number;
    readonly restitution: number;
    readonly tangentSpeed: number;
    readonly rollingResistance: number;
    readonly isSensor: boolean;
    readonly isValid: boolean;
}

export class Joint {
    readonly world: World;
    readonly key: bigint;
    readonly constraintForce: Vec2;
    readonly constraintTorque: number;
    readonly angle: number;
    readonly angularSpeed: number;
    readonly translation: number;
    readonly linearSpeed: number;
    readonly isValid: boolean;
    setMotorSpeed(speed: number): void;
    setTarget(target: Vec2): void;
}

export class Shape {
    massProperties(density: number): { mass: number; center: Vec2; inertia: number };
}
export class Circle extends Shape {
    constructor(radius: number);
    readonly radius: number;
}
export class Box extends Shape {
    constructor(halfWidth: number, halfHeight: number, radius?: number);
    readonly halfExtents: Vec2;
}
export class Polygon extends Shape {
    constructor(points: Vec2[], radius?: number);
    readonly vertices: Vec2[];
}
export class Capsule extends Shape {
    constructor(p1: Vec2, p2: Vec2, radius: number);
}
export class Segment extends Shape {
    constructor(p1: Vec2, p2: Vec2);
}
export class Ellipse extends Shape {
    constructor(rx: number, ry: number);
}

//! The `--at x,y,angle` argument of the collision examples.

use lamina2d::prelude::*;

/// The pose given as `x,y,angle` (metres, metres, radians), or a message naming
/// what is wrong with it.
pub fn parse_pose(text: Option<&String>) -> Result<Isometry, String> {
    let text = text.ok_or("--at needs x,y,angle")?;
    let v: Vec<Real> = text
        .split(',')
        .map(|s| s.trim().parse::<Real>().map_err(|_| format!("`{s}` is not a number")))
        .collect::<Result<_, _>>()?;
    let [x, y, a] = v[..] else { return Err(format!("--at needs three numbers, got {}", v.len())) };
    if !(x.is_finite() && y.is_finite() && a.is_finite()) {
        return Err(format!("--at needs finite numbers, got `{text}`"));
    }
    Ok(Isometry::new(Vec2::new(x, y), a))
}

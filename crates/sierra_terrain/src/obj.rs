//! Wavefront OBJ + MTL export of generated meshes (the thesis exported its landscape to OBJ to
//! reduce it in 3ds Max, §2.3.6).
//!
//! Layout: `v x y z r g b` (vertex colours as the common extension that Blender, MeshLab and
//! tobj read; omitted when the mesh has none), `vt u v`, `vn x y z`, one material, and
//! `f v/vt/vn` faces (1-based, counter-clockwise).

use std::io::Write;
use std::path::{Path, PathBuf};

use glam::Vec4;

use crate::error::Error;
use crate::mesh::Mesh;

/// Paths written by [`write_obj`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjFiles {
    /// The `.obj` file.
    pub obj: PathBuf,
    /// Its `.mtl` file (same stem).
    pub mtl: PathBuf,
}

/// Writes `mesh` to `dir/stem.obj` and `dir/stem.mtl` (creating `dir`). The material's diffuse
/// colour is the mean vertex colour (white without colours).
///
/// # Errors
/// [`Error::Mesh`] for an inconsistent mesh, [`Error::Io`] naming the file that failed.
pub fn write_obj(mesh: &Mesh, dir: &Path, stem: &str) -> Result<ObjFiles, Error> {
    mesh.validate()?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let files = ObjFiles {
        obj: dir.join(format!("{stem}.obj")),
        mtl: dir.join(format!("{stem}.mtl")),
    };
    let material = if mesh.name.is_empty() {
        "material"
    } else {
        mesh.name.as_str()
    };
    write_file(&files.mtl, |w| write_mtl(w, material, mesh))?;
    write_file(&files.obj, |w| {
        write_obj_body(w, mesh, material, &format!("{stem}.mtl"))
    })?;
    Ok(files)
}

/// Writes `path` through [`sierra_assets::write_atomic_with`]: a failed write leaves nothing
/// under `path`.
fn write_file(
    path: &Path,
    body: impl FnOnce(&mut sierra_assets::AtomicFile) -> std::io::Result<()>,
) -> Result<(), Error> {
    sierra_assets::write_atomic_with(path, body).map_err(|e| Error::io(e.path, e.source))
}

fn write_mtl(w: &mut impl Write, material: &str, mesh: &Mesh) -> std::io::Result<()> {
    let kd = if mesh.colors.is_empty() {
        Vec4::ONE
    } else {
        mesh.colors.iter().copied().sum::<Vec4>() / mesh.colors.len() as f32
    };
    writeln!(w, "# Sierra procedural mesh material")?;
    writeln!(w, "newmtl {material}")?;
    writeln!(w, "Ka 0.1 0.1 0.1")?;
    writeln!(w, "Kd {} {} {}", kd.x, kd.y, kd.z)?;
    writeln!(w, "Ks 0.05 0.05 0.05")?;
    writeln!(w, "Ns 16")?;
    writeln!(w, "illum 2")
}

fn write_obj_body(
    w: &mut impl Write,
    mesh: &Mesh,
    material: &str,
    mtl_name: &str,
) -> std::io::Result<()> {
    writeln!(
        w,
        "# Sierra procedural mesh: {} vertices, {} triangles",
        mesh.vertex_count(),
        mesh.triangle_count()
    )?;
    writeln!(w, "mtllib {mtl_name}")?;
    writeln!(w, "o {material}")?;
    for (k, p) in mesh.positions.iter().enumerate() {
        match mesh.colors.get(k) {
            Some(c) => writeln!(w, "v {} {} {} {} {} {}", p.x, p.y, p.z, c.x, c.y, c.z)?,
            None => writeln!(w, "v {} {} {}", p.x, p.y, p.z)?,
        }
    }
    for uv in &mesh.uvs {
        writeln!(w, "vt {} {}", uv.x, uv.y)?;
    }
    for n in &mesh.normals {
        writeln!(w, "vn {} {} {}", n.x, n.y, n.z)?;
    }
    writeln!(w, "usemtl {material}")?;
    let has_uv = !mesh.uvs.is_empty();
    for t in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [t[0] + 1, t[1] + 1, t[2] + 1];
        if has_uv {
            writeln!(w, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}")?;
        } else {
            writeln!(w, "f {a}//{a} {b}//{b} {c}//{c}")?;
        }
    }
    Ok(())
}

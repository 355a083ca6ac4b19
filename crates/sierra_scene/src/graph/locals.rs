//! Local transforms stored as a structure of arrays: one `f32` array per component, so the
//! propagation pass turns rotations and scales into matrix columns eight or sixteen nodes at a
//! time (see [`super::propagate`]).

use glam::{Quat, Vec3};

use super::transform::Transform;

/// The local transforms of every slot, component by component (`tx[slot]`, `qw[slot]`, ...).
/// Translation in metres, rotation a unit quaternion `(x, y, z, w)`, per-axis scale.
#[derive(Clone, Debug, Default)]
pub(crate) struct LocalSoa {
    pub(crate) tx: Vec<f32>,
    pub(crate) ty: Vec<f32>,
    pub(crate) tz: Vec<f32>,
    pub(crate) qx: Vec<f32>,
    pub(crate) qy: Vec<f32>,
    pub(crate) qz: Vec<f32>,
    pub(crate) qw: Vec<f32>,
    pub(crate) sx: Vec<f32>,
    pub(crate) sy: Vec<f32>,
    pub(crate) sz: Vec<f32>,
}

impl LocalSoa {
    /// Appends a slot.
    pub(crate) fn push(&mut self, t: Transform) {
        self.tx.push(t.translation.x);
        self.ty.push(t.translation.y);
        self.tz.push(t.translation.z);
        self.qx.push(t.rotation.x);
        self.qy.push(t.rotation.y);
        self.qz.push(t.rotation.z);
        self.qw.push(t.rotation.w);
        self.sx.push(t.scale.x);
        self.sy.push(t.scale.y);
        self.sz.push(t.scale.z);
    }

    /// The transform in `slot` (which must exist).
    pub(crate) fn get(&self, slot: usize) -> Transform {
        Transform {
            translation: Vec3::new(self.tx[slot], self.ty[slot], self.tz[slot]),
            rotation: Quat::from_xyzw(self.qx[slot], self.qy[slot], self.qz[slot], self.qw[slot]),
            scale: Vec3::new(self.sx[slot], self.sy[slot], self.sz[slot]),
        }
    }

    /// Overwrites `slot` (which must exist).
    pub(crate) fn set(&mut self, slot: usize, t: Transform) {
        self.tx[slot] = t.translation.x;
        self.ty[slot] = t.translation.y;
        self.tz[slot] = t.translation.z;
        self.qx[slot] = t.rotation.x;
        self.qy[slot] = t.rotation.y;
        self.qz[slot] = t.rotation.z;
        self.qw[slot] = t.rotation.w;
        self.sx[slot] = t.scale.x;
        self.sy[slot] = t.scale.y;
        self.sz[slot] = t.scale.z;
    }

    /// Rebuilds every array so that new slot `k` holds old slot `order[k]`.
    pub(crate) fn reorder(&mut self, order: &[u32]) {
        for column in self.columns_mut() {
            *column = order.iter().map(|&k| column[k as usize]).collect();
        }
    }

    fn columns_mut(&mut self) -> [&mut Vec<f32>; 10] {
        [
            &mut self.tx,
            &mut self.ty,
            &mut self.tz,
            &mut self.qx,
            &mut self.qy,
            &mut self.qz,
            &mut self.qw,
            &mut self.sx,
            &mut self.sy,
            &mut self.sz,
        ]
    }
}

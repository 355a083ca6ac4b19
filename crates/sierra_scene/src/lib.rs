//! sierra_scene

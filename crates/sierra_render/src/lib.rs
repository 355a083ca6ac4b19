//! sierra_render

//! sierra_terrain

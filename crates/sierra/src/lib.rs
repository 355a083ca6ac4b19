//! sierra

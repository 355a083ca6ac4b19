//! sierra_anim

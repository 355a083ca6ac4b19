//! `Terrain`: the island height field (mountains, beach, sea floor) shaped from fBm;
//! generated on the GPU by default (seed 002, §2.3).
//! The parameters are `sierra_terrain`'s plain serde struct; every field is optional in JSON
//! (camelCase; defaults and units documented on the struct).

/// `"type": "Terrain"`: see [`sierra_terrain::island::TerrainParams`].
pub use sierra_terrain::island::TerrainParams as Terrain;

#[cfg(test)]
mod tests {
    use crate::components::Component;

    #[test]
    fn landscape_components_parse_from_level_json() {
        let c: Component =
            serde_json::from_str(r#"{"type": "Terrain", "heightScale": 40, "backend": "cpu"}"#)
                .unwrap();
        let Component::Terrain(t) = c else {
            panic!("{c:?}")
        };
        assert_eq!(t.height_scale, 40.0);
        for text in [
            r#"{"type": "Planet", "radius": 90, "cloudSpeed": 0.05}"#,
            r#"{"type": "Birds", "count": 10, "seed": 3}"#,
            r#"{"type": "PalmTrees", "count": 6, "frondLength": 3}"#,
        ] {
            serde_json::from_str::<Component>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        let e = serde_json::from_str::<Component>(r#"{"type": "Birds", "cuont": 3}"#).unwrap_err();
        assert!(e.to_string().contains("cuont"), "{e}");
    }
}

//! The buffers of one glTF import ([`Buffers`]): their bytes, the `EXT_meshopt_compression`
//! views decoded from them, and the decoded-bytes budget the accessor reader charges.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;

use sierra_assets::{AssetError, Budget};

use crate::{Error, Result};

/// The buffers of one import, and what has been decoded from them so far.
pub(crate) struct Buffers {
    data: Vec<Vec<u8>>,
    /// `EXT_meshopt_compression` views, decoded (in `u32` words for alignment), by view index.
    views: HashMap<usize, Vec<u32>>,
    decoded: Cell<u64>,
    limit: u64,
}

impl Buffers {
    /// The buffers `data` of one import, nothing decoded yet; at most `limit` bytes may be
    /// decoded from them ([`sierra_assets::Budgets::gltf_decoded_bytes`]).
    pub(crate) fn new(data: Vec<Vec<u8>>, limit: u64) -> Self {
        Self {
            data,
            views: HashMap::new(),
            decoded: Cell::new(0),
            limit,
        }
    }

    /// Buffer `index`'s bytes.
    pub(crate) fn get(&self, index: usize) -> Option<&[u8]> {
        self.data.get(index).map(Vec::as_slice)
    }

    /// The bytes of buffer view `view`: its decoded data when it is meshopt-compressed, else
    /// its range of its buffer (`None` when that lies outside the buffer).
    pub(crate) fn view(&self, view: &gltf::buffer::View) -> Option<&[u8]> {
        if let Some(words) = self.views.get(&view.index()) {
            return bytemuck::cast_slice::<u32, u8>(words).get(..view.length());
        }
        let data = self.get(view.buffer().index())?;
        data.get(view.offset()..view.offset().checked_add(view.length())?)
    }

    /// Stores the decoded bytes of compressed view `index`.
    pub(crate) fn set_view(&mut self, index: usize, words: Vec<u32>) {
        self.views.insert(index, words);
    }

    /// Counts `bytes` more decoded data against [`sierra_assets::Budgets::gltf_decoded_bytes`];
    /// `what` names the accessor or image for the refusal.
    pub(crate) fn charge(
        &self,
        file: &Path,
        bytes: u64,
        what: impl FnOnce() -> String,
    ) -> Result<()> {
        let total = self.decoded.get().saturating_add(bytes);
        if total > self.limit {
            return Err(Error::Asset(AssetError::OverBudget {
                file: file.to_owned(),
                what: format!("the decoded data with {}", what()),
                amount: format!("{total} bytes"),
                limit: self.limit,
                unit: "bytes",
                budget: Budget::GltfDecodedBytes,
            }));
        }
        self.decoded.set(total);
        Ok(())
    }
}

//! The digits data: the CSV (gzip) embedded in the binary, an 80/20 split with a fixed seed,
//! and the batcher that turns items into tensors.

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataset::{Dataset, InMemDataset, PartialDataset, ShuffledDataset};
use burn::tensor::{Device, Int, Tensor, TensorData};
use std::io::Read;

/// The data file (see `data/README.md` for its provenance).
static DIGITS_CSV_GZ: &[u8] = include_bytes!("../data/digits.csv.gz");

/// Pixels per image (8 x 8).
pub const PIXELS: usize = 64;
/// Digit classes.
pub const CLASSES: usize = 10;

/// One image: its pixels scaled to [0, 1] and its digit.
#[derive(Debug, Clone)]
pub struct DigitItem {
    /// 64 pixels, row-major, in [0, 1].
    pub pixels: [f32; PIXELS],
    /// The digit, 0 to 9.
    pub label: u8,
}

/// Every image of the data file, in file order.
pub fn load_items() -> Vec<DigitItem> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(DIGITS_CSV_GZ)
        .read_to_string(&mut text)
        .expect("the embedded digits file is valid gzip text");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(row, line)| {
            let values: Vec<f32> = line
                .split(',')
                .map(|v| {
                    v.trim().parse::<f32>().unwrap_or_else(|e| {
                        panic!("digits.csv row {}: {v:?} is not a number: {e}", row + 1)
                    })
                })
                .collect();
            assert_eq!(
                values.len(),
                PIXELS + 1,
                "digits.csv row {}: 65 columns",
                row + 1
            );
            let mut pixels = [0.0; PIXELS];
            for (p, v) in pixels.iter_mut().zip(&values) {
                *p = v / 16.0;
            }
            DigitItem {
                pixels,
                label: values[PIXELS] as u8,
            }
        })
        .collect()
}

/// The seed of the split (and of everything else in the example).
pub const SEED: u64 = 42;

/// The 80 % training part and the 20 % validation part, shuffled once with [`SEED`].
pub fn split() -> (impl Dataset<DigitItem>, impl Dataset<DigitItem>) {
    let items = load_items();
    let train_len = items.len() * 8 / 10;
    let shuffled = std::sync::Arc::new(ShuffledDataset::with_seed(InMemDataset::new(items), SEED));
    let total = shuffled.len();
    (
        PartialDataset::new(shuffled.clone(), 0, train_len),
        PartialDataset::new(shuffled, train_len, total),
    )
}

/// A batch: images `[batch, 64]` and digits `[batch]`.
#[derive(Debug, Clone)]
pub struct DigitBatch {
    /// The pixels.
    pub images: Tensor<2>,
    /// The digits.
    pub targets: Tensor<1, Int>,
}

/// Stacks items into a [`DigitBatch`].
#[derive(Debug, Clone, Default)]
pub struct DigitBatcher;

impl Batcher<DigitItem, DigitBatch> for DigitBatcher {
    fn batch(&self, items: Vec<DigitItem>, device: &Device) -> DigitBatch {
        let len = items.len();
        let pixels: Vec<f32> = items.iter().flat_map(|item| item.pixels).collect();
        let labels: Vec<i64> = items.iter().map(|item| item.label as i64).collect();
        DigitBatch {
            images: Tensor::from_data(TensorData::new(pixels, [len, PIXELS]), device),
            targets: Tensor::from_data(TensorData::new(labels, [len]), device),
        }
    }
}

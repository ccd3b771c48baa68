//! `Distribution`: how random tensors are sampled.

use rand::{Rng, RngCore};

/// A distribution to sample tensor values from.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub enum Distribution {
    /// Uniform on `[0, 1)`.
    #[default]
    Default,
    /// 1 with probability `p`, else 0.
    Bernoulli(f64),
    /// Uniform on `[low, high)`.
    Uniform(f64, f64),
    /// Normal with the given mean and standard deviation.
    Normal(f64, f64),
}

impl Distribution {
    /// A sampler drawing from this distribution with `rng`.
    pub fn sampler<'a, R: RngCore>(self, rng: &'a mut R) -> DistributionSampler<'a, R> {
        DistributionSampler {
            distribution: self,
            rng,
            spare_normal: None,
        }
    }
}

/// Draws `f64` values from a [`Distribution`].
pub struct DistributionSampler<'a, R: RngCore> {
    distribution: Distribution,
    rng: &'a mut R,
    spare_normal: Option<f64>,
}

impl<R: RngCore> DistributionSampler<'_, R> {
    /// The next value.
    pub fn sample(&mut self) -> f64 {
        match self.distribution {
            Distribution::Default => self.rng.random::<f64>(),
            Distribution::Bernoulli(p) => (self.rng.random::<f64>() < p) as u8 as f64,
            Distribution::Uniform(low, high) => low + (high - low) * self.rng.random::<f64>(),
            Distribution::Normal(mean, std) => mean + std * self.standard_normal(),
        }
    }

    /// A standard normal value by the Box–Muller transform (two values per pair of uniforms).
    fn standard_normal(&mut self) -> f64 {
        if let Some(value) = self.spare_normal.take() {
            return value;
        }
        let u1 = 1.0 - self.rng.random::<f64>(); // (0, 1]: keeps ln finite
        let u2 = self.rng.random::<f64>();
        let radius = (-2.0 * u1.ln()).sqrt();
        let angle = core::f64::consts::TAU * u2;
        self.spare_normal = Some(radius * angle.sin());
        radius * angle.cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn normal_has_the_asked_moments() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut sampler = Distribution::Normal(2.0, 3.0).sampler(&mut rng);
        let values: Vec<f64> = (0..20_000).map(|_| sampler.sample()).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        assert!((mean - 2.0).abs() < 0.1, "mean {mean}");
        assert!((var.sqrt() - 3.0).abs() < 0.1, "std {}", var.sqrt());
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut sampler = Distribution::Uniform(-1.0, 1.0).sampler(&mut rng);
        assert!(
            (0..1000)
                .map(|_| sampler.sample())
                .all(|v| (-1.0..1.0).contains(&v))
        );
    }
}

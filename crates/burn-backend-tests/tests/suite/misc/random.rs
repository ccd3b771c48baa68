//! Seeded random reproducibility: seeding twice with one seed gives the same values; other
//! seeds give other values.

use burn::tensor::{Distribution, Int, Tensor};
use burn_backend_tests::{Env, device_rng_lock};

fn draw(env: &Env, seed: u64) -> Vec<f64> {
    env.device.seed(seed);
    let x = Tensor::<2>::random([16, 16], Distribution::Normal(0.0, 1.0), &env.device);
    x.into_data().to_vec::<f64>().unwrap()
}

#[test]
fn same_seed_same_values() {
    let env = Env::new(crate::device());
    let _lock = device_rng_lock();
    let first = draw(&env, 42);
    let second = draw(&env, 42);
    assert_eq!(first, second, "seed(42) twice gave different values");
    let other = draw(&env, 43);
    assert_ne!(first, other, "seed(42) and seed(43) gave the same values");
}

#[test]
fn consecutive_draws_differ() {
    let env = Env::new(crate::device());
    let _lock = device_rng_lock();
    env.device.seed(7);
    let a = Tensor::<1>::random([64], Distribution::Default, &env.device).into_data();
    let b = Tensor::<1>::random([64], Distribution::Default, &env.device).into_data();
    assert_ne!(a, b, "two draws after one seed are equal");
}

#[test]
fn int_random_is_reproducible() {
    let env = Env::new(crate::device());
    let _lock = device_rng_lock();
    let draw = |seed| {
        env.device.seed(seed);
        Tensor::<1, Int>::random([100], Distribution::Uniform(0.0, 1000.0), &env.device)
            .into_data()
            .to_vec::<i64>()
            .unwrap()
    };
    assert_eq!(draw(5), draw(5), "int random after seed(5) twice");
}

#[test]
fn categorical_draws_in_proportion_to_the_weights() {
    // torch.multinomial(w, n, replacement=True): with weights [1, 2, 0, 5] the frequencies are
    // 1/8, 2/8, 0, 5/8; a one-hot row always draws its category.
    let env = Env::new(crate::device());
    let _lock = device_rng_lock();
    env.device.seed(11);
    let weights = Tensor::<2>::from_data([[1.0, 2.0, 0.0, 5.0], [0.0, 0.0, 3.0, 0.0]], &env.device);
    let n = 4000;
    let drawn = weights.categorical(n);
    assert_eq!(drawn.dims(), [2, n]);
    let drawn = drawn.into_data().to_vec::<i64>().unwrap();
    let mut counts = [0usize; 4];
    for &c in &drawn[..n] {
        counts[c as usize] += 1;
    }
    assert_eq!(counts[2], 0, "a zero weight was drawn: {counts:?}");
    for (i, p) in [(0, 1.0 / 8.0), (1, 2.0 / 8.0), (3, 5.0 / 8.0)] {
        // Five standard deviations of a binomial count.
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        let expected = n as f64 * p;
        assert!(
            (counts[i] as f64 - expected).abs() < 5.0 * sd,
            "category {i}: {} draws, expected {expected} ± {}",
            counts[i],
            5.0 * sd
        );
    }
    assert!(
        drawn[n..].iter().all(|&c| c == 2),
        "the one-hot row drew another category"
    );
}

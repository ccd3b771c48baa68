//! The device itself: identity, names, kinds, enumeration, sync, and tensors reporting it.

use burn::tensor::{Device, DeviceFilter, DeviceType, Tensor};
use burn_backend_tests::Env;

#[test]
fn tensors_report_their_device() {
    let env = Env::new(crate::device());
    let x = Tensor::<2>::ones([2, 2], &env.device);
    assert_eq!(x.device(), env.device);
    let y = (x.clone() + x).exp().sum_dim(0);
    assert_eq!(
        y.device(),
        env.device,
        "results live on the device of their inputs"
    );
    assert_eq!(
        crate::device(),
        env.device,
        "the binary's device is one value"
    );
}

#[test]
fn names_and_kinds() {
    let env = Env::new(crate::device());
    assert!(!env.device.name().is_empty(), "device name");
    assert_eq!(
        format!("{}", env.device),
        env.device.name(),
        "Display is the name"
    );
    assert!(!format!("{:?}", env.device).is_empty(), "Debug");
}

#[test]
fn enumerate_lists_the_device_under_test() {
    let env = Env::new(crate::device());
    #[allow(unused_mut)]
    let mut filter = DeviceFilter::new().with(DeviceType::Flex);
    #[cfg(feature = "wgpu")]
    {
        filter = filter | DeviceType::Vulkan;
    }
    #[cfg(feature = "cpu")]
    {
        filter = filter | DeviceType::Cpu;
    }
    #[cfg(feature = "cuda")]
    {
        filter = filter | DeviceType::Cuda;
    }
    let listed = Device::enumerate(filter);
    assert!(
        listed.contains(&env.device),
        "{:?} is not among {:?}",
        env.device,
        &*listed
    );
    let flex = Device::enumerate(DeviceType::Flex | DeviceType::Flex).into_vec();
    assert_eq!(flex, [Device::flex()], "one Flex device, listed once");
    assert!(Device::enumerate(DeviceFilter::new()).is_empty());
}

#[test]
fn sync_flush_and_cleanup() {
    let env = Env::new(crate::device());
    // 16³ = 4096: exact in every float dtype, f16 included (64³ overflows its 65504).
    let x = Tensor::<2>::ones([16, 16], &env.device).matmul(Tensor::ones([16, 16], &env.device));
    env.device.flush().expect("flush");
    env.device.sync().expect("sync");
    env.device.memory_cleanup();
    assert_eq!(
        x.sum().into_scalar::<f64>(),
        16.0 * 16.0 * 16.0,
        "values survive memory_cleanup"
    );
}

#[test]
fn from_dispatch_round_trip() {
    let env = Env::new(crate::device());
    let again = Device::from_dispatch(env.device.dispatch().clone());
    assert_eq!(again, env.device);
}

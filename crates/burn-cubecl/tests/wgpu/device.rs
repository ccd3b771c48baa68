//! Devices: ids, kinds, the default device and the dtypes the device reports.

use crate::device_or_skip;
use burn_backend::{BoolStore, DType, DeviceOps, HardwareKind};
use burn_cubecl::cubecl::device::CudaDevice;
use burn_cubecl::dtype::{bool_store, device_dtype_usage};
use burn_cubecl::{CubeDevice, WgpuDeviceKind};

#[test]
fn ids_differ_across_runtimes_and_graphics_apis() {
    let wgpu = CubeDevice::from_cubecl(burn_cubecl::cubecl::Device::Wgpu(
        burn_cubecl::WgpuDevice::new(WgpuDeviceKind::Cpu),
    ));
    let vulkan = CubeDevice::from_cubecl(burn_cubecl::cubecl::Device::Wgpu(
        burn_cubecl::WgpuDevice::new(WgpuDeviceKind::Cpu).on(burn_cubecl::WgpuBackend::Vulkan),
    ));
    let cuda = CubeDevice::from_cubecl(burn_cubecl::cubecl::Device::Cuda(CudaDevice::new(0)));
    assert_ne!(
        wgpu.id().type_id,
        cuda.id().type_id,
        "runtime in the type id"
    );
    assert_ne!(wgpu.id(), vulkan.id(), "graphics API in the id");
    assert_eq!(wgpu.id(), wgpu.clone().id());
    // Only the low byte is used, leaving the high bits to the dispatch layer.
    assert!(wgpu.id().type_id < 0x100 && cuda.id().type_id < 0x100);
}

#[test]
fn kinds() {
    let kind = |k| {
        CubeDevice::from_cubecl(burn_cubecl::cubecl::Device::Wgpu(
            burn_cubecl::WgpuDevice::new(k),
        ))
        .kind()
    };
    assert_eq!(kind(WgpuDeviceKind::Cpu), HardwareKind::VirtualGpu);
    assert_eq!(
        kind(WgpuDeviceKind::DiscreteGpu(0)),
        HardwareKind::DiscreteGpu
    );
    assert_eq!(
        kind(WgpuDeviceKind::IntegratedGpu(0)),
        HardwareKind::IntegratedGpu
    );
    let cuda = CubeDevice::from_cubecl(burn_cubecl::cubecl::Device::Cuda(CudaDevice::new(0)));
    assert_eq!(cuda.kind(), HardwareKind::DiscreteGpu);
}

#[test]
fn default_is_the_best_adapter() {
    let device = device_or_skip!();
    let default = CubeDevice::default();
    assert_eq!(default, CubeDevice::default(), "resolved once");
    // The test device is the best of discrete, integrated, then CPU adapters; the default
    // only adds virtual GPUs to that order, which this machine is assumed not to mix.
    let api_pinned = std::env::var("BURN_WGPU_TEST_API").is_ok_and(|api| api != "auto");
    if !api_pinned && CubeDevice::wgpu(WgpuDeviceKind::VirtualGpu(0)).is_err() {
        assert_eq!(default, device);
    }
    eprintln!("default device: {default:?} ({:?})", default.kind());
    // WGPU's `DefaultDevice` names that same adapter (one device, one client), not a second
    // device WGPU resolves on its own.
    let named = CubeDevice::wgpu(WgpuDeviceKind::DefaultDevice).expect("an adapter");
    assert_eq!(named, default);
}

#[test]
fn dtype_usage_is_what_the_runtime_registered() {
    let device = device_or_skip!();
    let usage = |dtype| device_dtype_usage(&device, dtype);
    assert!(usage(DType::F32).arithmetic && usage(DType::F32).storage);
    assert!(usage(DType::I32).arithmetic);
    assert!(
        !usage(DType::Bool(BoolStore::Native)).storage,
        "native bools are never stored"
    );
    let client = device.client();
    let store = bool_store(&client);
    assert!(usage(DType::Bool(store)).storage);
    let mut report = Vec::new();
    for dtype in [
        DType::F64,
        DType::F32,
        DType::F16,
        DType::BF16,
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
    ] {
        let u = usage(dtype);
        report.push(format!(
            "{dtype}: storage {} arithmetic {} accelerated {}",
            u.storage, u.arithmetic, u.accelerated
        ));
        // A dtype reported as storable really is: upload and read back.
        if u.storage {
            let values = [1.0, 0.0, 3.0];
            let t = crate::harness::tensor(&device, &values, &[3], dtype);
            assert_eq!(
                crate::harness::read(t, &[3], dtype),
                values,
                "{dtype} round trip"
            );
        }
    }
    eprintln!(
        "{} ({store:?} bools, buffer offsets aligned to {} bytes):\n  {}",
        client.name(),
        client.properties().memory.alignment,
        report.join("\n  ")
    );
}

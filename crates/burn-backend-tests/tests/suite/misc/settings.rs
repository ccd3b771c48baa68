//! The settings lock (DESIGN decision 2): the first tensor locks a device's default dtypes; a
//! later `configure` returns `AlreadyInitialized` and changes nothing.

use burn::tensor::{DType, DeviceConfig, FloatDType, IntDType, SettingsError, Tensor};
use burn_backend_tests::Env;

#[test]
fn configure_after_first_tensor_is_refused() {
    let env = Env::new(crate::device());
    let _ = Tensor::<1>::zeros([2], &env.device);
    let before = env.device.settings();
    let other = if before.float_dtype == FloatDType::F64 {
        FloatDType::F32
    } else {
        FloatDType::F64
    };
    let result = env
        .device
        .clone()
        .configure(DeviceConfig::default().float_dtype(other));
    match result {
        Err(SettingsError::AlreadyInitialized { current }) => {
            assert_eq!(
                current, before,
                "AlreadyInitialized reports the settings in force"
            )
        }
        other => panic!("configure after a tensor exists returned {other:?}"),
    }
    assert_eq!(
        env.device.settings(),
        before,
        "a refused configure changed the settings"
    );
    let fresh = Tensor::<1>::zeros([2], &env.device);
    assert_eq!(
        fresh.dtype(),
        DType::from(before.float_dtype),
        "new tensors keep the locked dtype"
    );
}

#[test]
fn configure_of_int_dtype_is_refused_too() {
    let env = Env::new(crate::device());
    let before = env.device.settings();
    let other = if before.int_dtype == IntDType::I64 {
        IntDType::I32
    } else {
        IntDType::I64
    };
    if !burn_backend_tests::supports(
        &env.device,
        &[other.into()],
        &format!("{} in {other}", module_path!()),
    ) {
        return;
    }
    let result = env.device.clone().configure(other);
    assert!(
        matches!(result, Err(SettingsError::AlreadyInitialized { .. })),
        "configure of the int dtype after first use returned {result:?}"
    );
    assert_eq!(env.device.settings().int_dtype, before.int_dtype);
}

#[test]
fn settings_report_the_dtypes_tensors_get() {
    let env = Env::new(crate::device());
    let settings = env.device.settings();
    assert_eq!(
        Tensor::<1>::ones([1], &env.device).dtype(),
        DType::from(settings.float_dtype)
    );
    assert_eq!(
        Tensor::<1, burn::tensor::Int>::ones([1], &env.device).dtype(),
        DType::from(settings.int_dtype)
    );
    assert_eq!(
        Tensor::<1, burn::tensor::Bool>::full([1], true, &env.device).dtype(),
        settings.bool_dtype
    );
    assert!(
        env.device.supports_dtype(settings.float_dtype),
        "the default float dtype is supported"
    );
}

#[test]
fn configured_device_accepts_the_same_request_again() {
    let env = Env::new(crate::device());
    let again = burn_backend_tests::configured_device(env.device.clone(), env.dtype);
    assert_eq!(again, env.device);
}

#[test]
#[should_panic(expected = "configured_device: cannot configure")]
fn configured_device_refuses_another_request() {
    let env = Env::new(crate::device());
    let other = if env.dtype == FloatDType::F64 {
        FloatDType::F32
    } else {
        FloatDType::F64
    };
    let _ = burn_backend_tests::configured_device(env.device, other);
}

use burn_backend_extension::backend_extension;

pub trait Backend: Sized {}
pub type FloatTensor<B> = Vec<B>;

#[backend_extension(Flex, Wgpu)]
pub trait MyOps: Backend {
    fn op(x: FloatTensor<Self>) -> FloatTensor<Self>;
}

#[backend_extension(Cuda)]
pub trait OtherOps: Backend {
    fn op(x: FloatTensor<Self>) -> FloatTensor<Self>;
}

fn main() {}

class Sequential(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : NoneType
  __annotations__["0"] = __torch__.torchvision.models.resnet.___torch_mangle_24.BasicBlock
  __annotations__["1"] = __torch__.torchvision.models.resnet.___torch_mangle_25.BasicBlock
  def forward(self: __torch__.torch.nn.modules.container.___torch_mangle_26.Sequential,
    input: Tensor) -> Tensor:
    _0 = getattr(self, "0")
    _1 = getattr(self, "1")
    input0 = (_0).forward(input, )
    return (_1).forward(input0, )
  def __len__(self: __torch__.torch.nn.modules.container.___torch_mangle_26.Sequential) -> int:
    return 2

class Hooked(Module):
  __parameters__ = []
  __buffers__ = []
  __forward_pre_hooks__ = ["pre_hook", ]
  __forward_hooks__ = ["post_hook", ]
  training : bool
  _is_full_backward_hook : Optional[bool]
  lin : __torch__.torch.nn.modules.linear.___torch_mangle_0.Linear
  def forward(self: __torch__.Hooked,
    x: Tensor) -> Tensor:
    lin = self.lin
    return torch.relu((lin).forward(x, ))
  def other(self: __torch__.Hooked,
    x: Tensor,
    y: Tensor) -> Tensor:
    a, b, = torch.chunk(x, 2)
    return torch.cat([a, b, y])
  def post_hook(m: __torch__.Hooked,
    inp: Tuple[Tensor],
    outp: Tensor) -> Tensor:
    return torch.add(outp, 1)
  def pre_hook(m: __torch__.Hooked,
    inp: Tuple[Tensor]) -> Tuple[Tensor]:
    return (torch.mul((inp)[0], 2),)

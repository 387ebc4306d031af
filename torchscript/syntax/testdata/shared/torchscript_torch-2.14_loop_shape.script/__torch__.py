class LoopShape(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  def forward(self: __torch__.LoopShape,
    x: Tensor) -> Tensor:
    result = torch.select(x, 0, 0)
    result0 = result
    for i in range(torch.size(x, 0)):
      result1 = torch.mul(result0, torch.select(x, 0, i))
      result0 = result1
    return result0

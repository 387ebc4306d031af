def forward(x: Tensor, n: int) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, int]:
    a = torch.add(1, x)
    b = torch.mul(2.5, x)
    c = torch.sub(n, x)
    d = torch.lt(1, x)
    e = torch.div(2, x)
    return (a, b, c, d, e, torch.add(n, 1))

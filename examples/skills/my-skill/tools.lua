-- examples/skills/my-skill/tools.lua
register {
  name = "count_product_cards",
  description = "Count the product cards on the current page.",
  input = { type = "object", properties = {} },
  run = function(ctx) return tostring(ctx:page():locator_count('getByTestId("product-card")').count) end,
}

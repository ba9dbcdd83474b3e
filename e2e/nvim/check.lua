-- Neovim as a real LSP client of `spyglass lsp` (headless, Neovim >= 0.7: start_client + buf_attach_client).
-- Environment: SPYGLASS_ROOT (a copy of tests/fixtures/shop), SPYGLASS_PYTHON (a Python with spyglass).
-- Exits 0 when every check passes, 1 otherwise; prints what it saw as JSON lines on stdout.
local root = os.getenv("SPYGLASS_ROOT")
local python = os.getenv("SPYGLASS_PYTHON") or "python3"

local function out(tbl) io.stdout:write(vim.fn.json_encode(tbl) .. "\n") end
local function fail(msg)
  out({ ok = false, error = msg })
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. root .. "/shop/pricing.py")
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "spyglass",
  cmd = { python, "-m", "spyglass", "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "shop" } },
  init_options = { maxResults = 20 },
  on_stderr = function() end,
})
if not client_id then fail("could not start spyglass lsp") end
vim.lsp.buf_attach_client(buf, client_id)
local client = vim.lsp.get_client_by_id(client_id)
if not vim.wait(30000, function() return client.initialized end, 50) then fail("no initialize answer") end

-- wait until the folder is indexed and embedded
local ready = vim.wait(120000, function()
  local res = client.request_sync("spyglass/status", {}, 5000, buf)
  local f = res and res.result and res.result.folders and res.result.folders[1]
  return f ~= nil and f.state == "idle" and f.embeddedFraction == 1
end, 200)
if not ready then fail("index never became idle") end

-- workspace/symbol: a name and a description
local function symbols(query)
  local res = vim.lsp.buf_request_sync(buf, "workspace/symbol", { query = query }, 10000)
  local r = res and res[client_id] and res[client_id].result
  return r or {}
end
local by_name = symbols("compute_discount")
out({ check = "workspace/symbol name", first = by_name[1] and by_name[1].name })
if not by_name[1] or by_name[1].name ~= "compute_discount" or by_name[1].kind ~= 12 then
  fail("workspace/symbol did not find compute_discount as a function")
end
local by_meaning = symbols("cost of sending a parcel")
out({ check = "workspace/symbol meaning", first = by_meaning[1] and by_meaning[1].name })
if not by_meaning[1] or by_meaning[1].name ~= "shipping_cost" then fail("semantic symbol search failed") end

-- hover on `def compute_discount` (line 6, 0-based 5): the use in cart.py links to its line, 32
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 5, character = 6 },
}, 10000)
local hover = res and res[client_id] and res[client_id].result
local text = hover and hover.contents and hover.contents.value or ""
out({ check = "hover", text = text })
if not text:find("def compute_discount", 1, true) or not text:find("shop/cart.py:32", 1, true) then
  fail("hover card lacks the signature or the related link")
end

-- an unsaved edit becomes searchable
vim.api.nvim_buf_set_lines(buf, -1, -1, false, { "", "", "def loyalty_points(total):", "    return int(total)" })
local found = vim.wait(10000, function()
  local s = symbols("loyalty_points")
  return s[1] ~= nil and s[1].name == "loyalty_points"
end, 100)
out({ check = "unsaved edit searchable", found = found })
if not found then fail("an unsaved edit was not found by workspace/symbol") end

vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.client_is_stopped(client_id) end, 50)
out({ ok = true })
vim.cmd("qall!")

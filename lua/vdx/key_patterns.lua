--- vdx.key_patterns: what a key does on a widget in the WAI-ARIA
-- Authoring Practices' patterns, for a key press that changed nothing.
--
-- A press of ArrowRight on a tab, in the pattern, moves focus to the next
-- tab; an app whose tabs take no key changes nothing, and the answer said
-- only that the press was recorded (run FJ found three such keys and
-- dropped them, unsure whether they were the app's gaps).  Only keys the
-- patterns require of the focused element's own role, whatever its
-- place, are named: the arrows of tabs and radio buttons, which wrap at
-- the ends, and Escape in an open menu.  Keys that may rightly do nothing
-- at an end or a bound (a menu's or a list's arrows, which wrap only
-- optionally, a slider's at its maximum) or that are optional (a
-- combobox's ArrowDown) are not.
local key_patterns = {}

-- role -> key -> what the pattern says the key does there.
local DOES = {
  tab = { ArrowRight = "moves focus to the next tab (the first, from the last)",
    ArrowLeft = "moves focus to the previous tab (the last, from the first)" },
  radio = { ArrowDown = "checks the next radio button", ArrowRight = "checks the next radio button",
    ArrowUp = "checks the previous radio button", ArrowLeft = "checks the previous radio button" },
  menuitem = { Escape = "closes the menu" },
}
DOES.menuitemcheckbox, DOES.menuitemradio = DOES.menuitem, DOES.menuitem

--- The line an answer adds when key, pressed with focus on the element of
-- the snapshot line focused (`tab "Billing" [selected] [ref=e12]`, as
-- changes.lua reads it), changed nothing on the page, focus included, and
-- the pattern of its role has key do something; else nil.
function key_patterns.note(key, focused)
  if type(key) ~= "string" or type(focused) ~= "string" then return nil end
  local role = focused:match("^([%a]+)")
  local does = role and DOES[role] and DOES[role][key]
  if not does then return nil end
  return ("In the WAI-ARIA Authoring Practices, %s on a %s %s; here nothing changed, and focus stayed on it. "
    .. "If the app means to follow them, that is its bug (known_bug on a browser_verify_* check records it)")
    :format(key, role, does)
end

return key_patterns

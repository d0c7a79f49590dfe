--- spec/shape_cases.lua: pages written for the cases of Playwright's
--- aria-snapshot grammar (its docs and its own snapshot tests describe the
--- format; these pages and texts are our own), each with the YAML
--- Playwright prints for it.  snapshot_shape_spec.lua compares vdxlua's
--- snapshot of each page with it (or with the case's `ai` text, where
--- Playwright's AI mode prints otherwise) after dropping the refs, and,
--- where Node is installed, checks that Playwright itself prints exactly
--- that YAML.
return {
  { "a heading carries its level",
    [=[<h2>Account</h2>]=],
    [=[
- heading "Account" [level=2]]=] },

  { "two headings in a row",
    [=[<h1>Shop</h1><h3>Today only</h3>]=],
    [=[
- heading "Shop" [level=1]
- heading "Today only" [level=3]]=] },

  { "a named list and its items' text",
    [=[<ol aria-label="Steps"><li>Mix</li><li>Bake</li></ol>]=],
    [=[
- list "Steps":
  - listitem: Mix
  - listitem: Bake]=] },

  { "a list item around a single link keeps its line",
    [=[<ul><li><a href="/home">Home</a></li></ul>]=],
    [=[
- list:
  - listitem:
    - link "Home":
      - /url: /home]=] },

  { "address, hgroup and s have no role (HTML-AAM maps them; Playwright does not)",
    [=[<hgroup><h2>Lamp</h2><p>Teak</p></hgroup><address>12 Main St</address><p><s>$20.00</s> $15.00</p>]=],
    [=[
- heading "Lamp" [level=2]
- paragraph: Teak
- text: 12 Main St
- paragraph: $20.00 $15.00]=] },

  { "loose text beside a heading",
    [=[<h1>News</h1><div>Fresh stories every day</div>]=],
    [=[
- heading "News" [level=1]
- text: Fresh stories every day]=] },

  { "a closed details element is a group showing its summary",
    [=[<details><summary>Shipping</summary><p>Two days</p></details>]=],
    [=[
- group: Shipping]=] },

  { "an open details element lists its summary and its content",
    [=[<details open><summary>Returns</summary><p>Thirty days</p></details>]=],
    [=[
- group:
  - text: Returns
  - paragraph: Thirty days]=] },

  { "a summary holding a link",
    [=[<details><summary>See <a href="/terms">terms</a> first</summary>x</details>]=],
    [=[
- group:
  - text: See
  - link "terms":
    - /url: /terms
  - text: first]=] },

  { "line breaks in a paragraph collapse to spaces",
    "<p>\n  Line one\n  Line two\n</p>",
    [=[
- paragraph: Line one Line two]=] },

  { "inline spans join into one text",
    [=[<span>Red</span> <span>Green</span> <span>Blue</span>]=],
    [=[
- text: Red Green Blue]=] },

  { "blocks are set apart by a space",
    [=[<div>North</div><div>South</div>]=],
    [=[
- text: North South]=] },

  { "aria-hidden text is left out",
    [=[<p><span>shown</span> <span aria-hidden="true">secret</span></p>]=],
    [=[
- paragraph: shown]=] },

  { "presentational list items add only their text",
    [=[<ul><li role="none">alpha</li><li role="presentation">beta</li></ul>]=],
    [=[
- list: alpha beta]=] },

  { "input values are text; file, checkbox and radio have none",
    [=[<input value="hello world"><input type="file"><input type="checkbox" checked><input type="radio" checked>]=],
    [=[
- textbox: hello world
- button "Choose File"
- checkbox [checked]
- radio [checked]]=] },

  { "an unchecked checkbox and radio",
    [=[<input type="checkbox"><input type="radio">]=],
    [=[
- checkbox
- radio]=] },

  { "aria-owns moves an item under its owner, once",
    [=[<div role="list" aria-owns="third"><div role="listitem">One</div><div role="listitem">Two</div></div>
      <p>Between</p><div role="listitem" id="third">Three</div>]=],
    [=[
- list:
  - listitem: One
  - listitem: Two
  - listitem: Three
- paragraph: Between]=] },

  { "circular ownership is ignored",
    [=[<div role="list" id="outer"><div role="listitem" aria-owns="outer">Only</div></div>]=],
    [=[
- list:
  - listitem: Only]=] },

  { "text that would end a YAML key is quoted",
    [=[<p>Total: <a href="#sum">sum</a> {all} <a href="#x">x</a> `code`</p>]=],
    [=[
- paragraph:
  - text: "Total:"
  - link "sum":
    - /url: "#sum"
  - text: "{all}"
  - link "x":
    - /url: "#x"
  - text: "`code`"]=] },

  { "text YAML would read as a bool, null or number is quoted",
    [=[<ul><li>true</li><li>No</li><li>y</li><li>OFF</li><li>null</li><li>42</li><li>-1.5</li><li>-</li><li>1e3</li><li>plain words</li></ul>]=],
    [=[
- list:
  - listitem: "true"
  - listitem: "No"
  - listitem: "y"
  - listitem: "OFF"
  - listitem: "null"
  - listitem: "42"
  - listitem: "-1.5"
  - listitem: "-"
  - listitem: "1e3"
  - listitem: plain words]=] },

  { "a value that looks like a number is quoted",
    [=[<input aria-label="Zip" value="0451">]=],
    [=[
- textbox "Zip": "0451"]=] },

  { "text starting with a YAML indicator, or holding a key or comment mark, is quoted",
    "<p>@home</p><p>] closing</p><p>#tag</p><p>[draft]</p><p>* star</p><p>&amp; more</p>" ..
    "<p>! bang</p><p>% rate</p><p>note: this</p><p>ends with:</p><p>a #b</p><p>a#b</p>",
    [=[
- paragraph: "@home"
- paragraph: "] closing"
- paragraph: "#tag"
- paragraph: "[draft]"
- paragraph: "* star"
- paragraph: "& more"
- paragraph: "! bang"
- paragraph: "% rate"
- paragraph: "note: this"
- paragraph: "ends with:"
- paragraph: "a #b"
- paragraph: a#b]=] },

  { "a name that would end a YAML key quotes the whole key",
    [=[<button>Price: 5</button><button>Tag #1</button><button>Plain</button>]=],
    [=[
- 'button "Price: 5"'
- 'button "Tag #1"'
- button "Plain"]=] },

  { "a textarea shows its current value",
    [=[<textarea aria-label="Note">Before</textarea><script>document.querySelector('textarea').value = 'After'</script>]=],
    [=[
- textbox "Note": After]=] },

  { "states of checkable, pressable and expandable widgets",
    [=[<div role="checkbox" aria-checked="mixed" tabindex="0">All</div>
      <button disabled>Send</button>
      <button aria-expanded="true">Menu</button>
      <button aria-pressed="true">Bold</button>]=],
    [=[
- checkbox "All" [checked=mixed]
- button "Send" [disabled]
- button "Menu" [expanded]
- button "Bold" [pressed]]=] },

  { "tabs and their panel",
    [=[<div role="tablist"><button role="tab" aria-selected="true">One</button><button role="tab">Two</button></div>
      <div role="tabpanel" aria-label="One">First body</div>]=],
    [=[
- tablist:
  - tab "One" [selected]
  - tab "Two"
- tabpanel "One": First body]=] },

  { "a placeholder that is not the name is a property",
    [=[<input aria-label="Search" placeholder="Type to search">]=],
    [=[
- textbox "Search":
  - /placeholder: Type to search]=] },

  { "a placeholder beside a value",
    [=[<input aria-label="Email" placeholder="you@example.com" value="a@b.c">]=],
    [=[
- textbox "Email":
  - /placeholder: you@example.com
  - text: a@b.c]=] },

  { "a placeholder that is the name is not repeated",
    [=[<input placeholder="City">]=],
    [=[
- textbox "City"]=] },

  { "a named navigation landmark",
    [=[<nav aria-label="Main"><a href="/a">About</a> <a href="/b">Blog</a></nav>]=],
    [=[
- navigation "Main":
  - link "About":
    - /url: /a
  - link "Blog":
    - /url: /b]=] },

  { "a paragraph mixing text and a link",
    [=[<p>Read the <a href="/faq">FAQ</a> first.</p>]=],
    [=[
- paragraph:
  - text: Read the
  - link "FAQ":
    - /url: /faq
  - text: first.]=] },

  { "an image by its alt text",
    [=[<img alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACwAAAAAAQABAAA=" width="20" height="20">]=],
    [=[
- img "Company logo"]=] },

  { "a select lists its options",
    [=[<select aria-label="Size"><option>Small</option><option selected>Medium</option></select>]=],
    [=[
- combobox "Size":
  - option "Small"
  - option "Medium" [selected]]=] },

  { "a slider shows its value",
    [=[<input type="range" aria-label="Volume" min="0" max="10" value="3">]=],
    [=[
- slider "Volume": "3"]=] },

  { "a dialog and its content",
    [=[<dialog open><h2>Saved</h2><button>OK</button></dialog>]=],
    [=[
- dialog:
  - heading "Saved" [level=2]
  - button "OK"]=] },

  -- ai: what vdxlua prints where Playwright's AI mode (page.ariaSnapshot({
  -- mode: 'ai' })) departs from the default mode the third text is: the
  -- heading's name is its link's, printed on the link's line.
  { "a heading holding a link",
    [=[<h2><a href="#intro">Intro</a></h2>]=],
    [=[
- heading "Intro" [level=2]:
  - link "Intro":
    - /url: "#intro"]=],
    ai = [=[
- heading [level=2]:
  - link "Intro":
    - /url: "#intro"]=] },

  { "a separator",
    [=[<p>Above</p><hr><p>Below</p>]=],
    [=[
- paragraph: Above
- separator
- paragraph: Below]=] },

  { "content in an open shadow root",
    [=[<div id="host"></div><script>
      document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<button>Inside</button>';
    </script>]=],
    [=[
- button "Inside"]=] },

  { "text slotted into a shadow button names it",
    [=[<div id="host">Slotted</div><script>
      document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<button><slot></slot></button>';
    </script>]=],
    [=[
- button "Slotted"]=] },

  { "list items in shadow roots, web-components style",
    [=[<ul id="todos"></ul><script>
      customElements.define('todo-row', class extends HTMLElement {
        connectedCallback() {
          this.attachShadow({ mode: 'open' }).innerHTML =
            '<li><input type="checkbox" aria-label="Done"><span>' + this.getAttribute('text') + '</span></li>';
        }
      });
      for (const t of ['Milk', 'Eggs']) {
        const r = document.createElement('todo-row');
        r.setAttribute('text', t);
        document.getElementById('todos').appendChild(r);
      }
    </script>]=],
    [=[
- list:
  - listitem:
    - checkbox "Done"
    - text: Milk
  - listitem:
    - checkbox "Done"
    - text: Eggs]=] },

  { "list items under a custom element, framework style",
    [=[<ul><app-todo><li>Walk</li></app-todo><app-todo><li><button>Undo</button></li></app-todo></ul>]=],
    [=[
- list:
  - listitem: Walk
  - listitem:
    - button "Undo"]=] },

}

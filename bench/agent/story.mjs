// bench/agent/story.mjs: the user story of each app, the same for both
// servers' sessions (bench/agent/sessions_*.mjs): what to type, click and
// check, by the names a user sees.  Never a ref: refs come from answers.
export const STORY = {
  todo: {
    input: 'New todo', add: ['Buy milk', 'Walk dog', 'Feed cat'], complete: 'Buy milk', filter: 'Active',
    list: 'Todo items', remain: ['Walk dog', 'Feed cat'], left: '2 items left',
  },
  widgets: {
    combo: 'Country', comboText: 'Nor', option: 'Norway', comboDone: 'Shipping to Norway',
    tab: 'Billing', tabText: 'Next invoice: 1 January, 240.00 EUR.',
    menu: 'Actions', menuItem: 'Export data', menuDone: 'Export data started',
    grid: 'Team members', sortBy: 'Joined', firstRow: 'Ken Thompson',
    open: 'Invite member', dialog: 'Invite a member',
    fields: [{ label: 'Full name', type: 'textbox', value: 'Ada Lovelace' },
      { label: 'Email', type: 'textbox', value: 'ada@example.com' },
      { label: 'Role', type: 'combobox', value: 'Editor' }],
    submit: 'Send invite', submitted: 'Invitation sent to Ada Lovelace <ada@example.com> as Editor',
  },
  docs: {
    section: '90. Queues reference', counter: 'Increment', clicks: 2, counted: 'Count: 2',
    nameField: 'Your name', name: 'Ada', weekly: 'Weekly digest', subscribe: 'Subscribe',
    subscribed: 'Subscribed: Ada (weekly)',
  },
  shadow: {
    search: 'Search products', query: 'lamp', results: '4 results for "lamp"',
    product: 'Desk Lamp', add: 'Add to Cart', added: 'Desk Lamp added to cart', badge: 1,
  },
};

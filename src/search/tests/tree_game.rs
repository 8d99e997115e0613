//! A game given as an explicit tree, for search tests that need what no real ruleset offers on
//! demand: a seat that moves twice in a row, a position in check whose evasions all lose, an
//! evaluation as large as a 3x3 hyperchess army beside a won position.

use crate::game::{Game, OptionSpec, Outcome, RuleOptions, Seat, Status};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
struct Node {
    to_move: Seat,
    /// The evaluation for seat 0 (seat 1 gets its negation).
    eval: i32,
    children: Vec<usize>,
    /// Whether the move into this node is noisy (quiescence searches it).
    noisy: bool,
    check: bool,
    /// The winner, once the game is over here.
    won_by: Option<Seat>,
}

/// A position: a node of a shared tree (node 0 the start).
#[derive(Clone, Debug)]
pub(in crate::search) struct TreeGame {
    nodes: Arc<Vec<Node>>,
    at: usize,
    opts: RuleOptions,
}

/// Builds a [`TreeGame`]: nodes are added with their seat to move and evaluation, then linked.
#[derive(Default)]
pub(in crate::search) struct Builder {
    nodes: Vec<Node>,
}

impl Builder {
    /// A node where `to_move` moves, evaluated `eval` for seat 0; returns its number (the first
    /// node added is the start).
    pub fn node(&mut self, to_move: Seat, eval: i32) -> usize {
        self.nodes.push(Node {
            to_move,
            eval,
            ..Node::default()
        });
        self.nodes.len() - 1
    }
    /// A node at the horizon: one quiet move, to a drawn end, that no test search reaches.
    pub fn leaf(&mut self, to_move: Seat, eval: i32) -> usize {
        let n = self.node(to_move, eval);
        let end = self.node(1 - to_move, 0);
        self.quiet(n, end);
        n
    }
    /// A finished node: `winner` has won.
    pub fn won(&mut self, winner: Seat) -> usize {
        let n = self.node(winner, 0);
        self.nodes[n].won_by = Some(winner);
        n
    }
    /// A quiet move from `parent` to `child`.
    pub fn quiet(&mut self, parent: usize, child: usize) -> &mut Self {
        self.nodes[parent].children.push(child);
        self
    }
    /// A noisy move from `parent` to `child` (the move into `child` is noisy wherever it is).
    pub fn noisy(&mut self, parent: usize, child: usize) -> &mut Self {
        self.nodes[child].noisy = true;
        self.quiet(parent, child)
    }
    /// The side to move at `n` is in check.
    pub fn check(&mut self, n: usize) -> &mut Self {
        self.nodes[n].check = true;
        self
    }
    pub fn start(&self) -> TreeGame {
        TreeGame {
            nodes: Arc::new(self.nodes.clone()),
            at: 0,
            opts: RuleOptions::of::<TreeGame>(),
        }
    }
}

impl TreeGame {
    fn node(&self) -> &Node {
        &self.nodes[self.at]
    }
    fn child(&self, m: u8) -> &Node {
        &self.nodes[self.node().children[m as usize]]
    }
}

impl Game for TreeGame {
    type Move = u8;
    const NAME: &'static str = "tree";
    const HAS_CHECK: bool = true;
    fn rule_options() -> &'static [OptionSpec] {
        &[]
    }
    fn start(_opts: &RuleOptions) -> Result<Self, String> {
        Err("a tree game is built, not started".into())
    }
    fn from_text(_text: &str, _opts: &RuleOptions) -> Result<Self, String> {
        Err("a tree game has no position text".into())
    }
    fn to_text(&self) -> String {
        self.at.to_string()
    }
    fn display(&self) -> String {
        self.to_text()
    }
    fn options(&self) -> &RuleOptions {
        &self.opts
    }
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        self.node().to_move
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if !self.status().is_over() {
            out.extend(0..self.node().children.len() as u8);
        }
    }
    fn play(&mut self, mv: u8) {
        self.at = self.node().children[mv as usize];
    }
    fn status(&self) -> Status {
        match self.node().won_by {
            Some(w) => Status::Over(Outcome::win(w, "won")),
            None if self.node().children.is_empty() => Status::Over(Outcome::draw(2, "no move")),
            None => Status::Ongoing,
        }
    }
    fn hash(&self) -> u64 {
        self.full_hash()
    }
    fn full_hash(&self) -> u64 {
        crate::zobrist::key(7, self.at as u64)
    }
    fn parse_move(&self, text: &str) -> Result<u8, String> {
        text.parse().map_err(|_| "a child number".to_string())
    }
    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn move_index_count(&self) -> usize {
        256
    }
    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn evaluate(&self, seat: Seat) -> i32 {
        if seat == 0 {
            self.node().eval
        } else {
            -self.node().eval
        }
    }
    fn is_noisy(&self, mv: u8) -> bool {
        self.child(mv).noisy
    }
    fn move_priority(&self, mv: u8) -> i32 {
        self.child(mv).noisy as i32
    }
    fn in_check(&self) -> bool {
        self.node().check
    }
}

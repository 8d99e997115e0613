//! What each seat knows (docs/rules/tesseris.md, "What each seat knows" and "Chance,
//! determinization, playing on an observation"): a seat's observation of a full state, the cards
//! it cannot place, and determinization (drawing those cards afresh).

use super::*;

impl Tesseris {
    /// What seat `o` knows, as an observation state (other hands' unknown cards and the deck
    /// order hidden, the random stream zeroed, hands in a canonical order).
    pub fn observe(&self, o: Seat) -> Self {
        let mut g = self.clone();
        let n = self.n as usize;
        let o = o.min(n - 1);
        if self.observer != NO_SEAT && self.observer as usize != o {
            // Seat `o` sees less than this observation's own observer in most respects; keep
            // this observation (documented: an observation is only re-observed for its observer).
            return g;
        }
        g.observer = o as u8;
        for t in 0..n {
            // (card, who knows it, held): `held` is kept for the unknown cards only, the
            // ones a determinization deals.
            let mut slots: [(u8, u8, bool); 4] = [(UNKNOWN, 1 << t, false); 4];
            for i in 0..4 {
                slots[i] = if t == o {
                    (self.hand[t][i], self.mask[t][i] | 1 << t, false)
                } else if self.mask[t][i] >> o & 1 == 1 && self.hand[t][i] != UNKNOWN {
                    (self.hand[t][i], 1 << t | 1 << o, false)
                } else {
                    (UNKNOWN, 1 << t, self.held[t] >> i & 1 == 1)
                };
            }
            slots.sort_unstable();
            g.held[t] = 0;
            for i in 0..4 {
                g.hand[t][i] = slots[i].0;
                g.mask[t][i] = slots[i].1;
                g.held[t] |= (slots[i].2 as u8) << i;
            }
        }
        for pos in 0..g.deck_len as usize {
            g.deck[pos] = UNKNOWN;
        }
        g.rng = 0;
        g.hash = g.compute_hash();
        g
    }

    /// How many copies of each shape are not visible in this state (other hands' unknown
    /// slots and unknown deck entries together).
    pub fn unknown_pool(&self) -> [u8; 18] {
        let mut count = [0i32; 19];
        for c in 0..self.shapes as usize {
            count[c] = 4;
        }
        for t in 0..self.n as usize {
            for k in 0..4 {
                let c = self.obj[t][k] as usize;
                if c < 18 {
                    count[c] -= 1 + (self.done[t] >> k & 1) as i32;
                }
                let h = self.hand[t][k] as usize;
                if h < 18 {
                    count[h] -= 1;
                }
            }
        }
        for p in 0..4 {
            for &c in self.pile(p) {
                count[(c as usize).min(18)] -= 1;
            }
        }
        for &c in self.deck() {
            if (c as usize) < 18 {
                count[c as usize] -= 1;
            }
        }
        let mut out = [0u8; 18];
        for c in 0..18 {
            out[c] = count[c].clamp(0, 255) as u8;
        }
        out
    }

    /// The inference a dealt observation must respect ([`Tesseris::held`]): an unknown card
    /// its owner already held at its last turn, a turn without a completion, completes none
    /// of the owner's open objectives (or the owner would have completed with it). A dealt
    /// card that does is swapped with a random unknown deck card that completes none of them
    /// (kept when the deck has none). `was_unknown[t]`: the slots of `t`'s hand just dealt;
    /// `deck_unknown`: the deck positions just dealt.
    fn respect_held(&mut self, rng: &mut GameRng, was_unknown: &[u8; 4], deck_unknown: u128) {
        use rand::Rng;
        for t in 0..self.n as usize {
            let slots = was_unknown[t] & self.held[t];
            if slots == 0 {
                continue;
            }
            let open = super::eval::open_mask(self, t);
            for i in 0..4 {
                if slots >> i & 1 == 0 || open >> self.hand[t][i] & 1 == 0 {
                    continue;
                }
                // A uniform choice among the deck cards that fit (reservoir sampling).
                let (mut pick, mut seen) = (None, 0u32);
                for pos in 0..self.deck_len as usize {
                    if deck_unknown >> pos & 1 == 1 && open >> self.deck[pos] & 1 == 0 {
                        seen += 1;
                        if rng.random_range(0..seen) == 0 {
                            pick = Some(pos);
                        }
                    }
                }
                if let Some(pos) = pick {
                    std::mem::swap(&mut self.deck[pos], &mut self.hand[t][i]);
                }
            }
        }
    }

    /// Deals the unknown cards of an observation at random (consistent with its knowledge) and
    /// reseeds the random stream. If `force` is `(seat, card)`, makes sure `seat` holds `card`
    /// by swapping it in from another unknown place if needed.
    pub(super) fn fill_unknown(&mut self, rng: &mut GameRng, force: Option<(usize, u8)>) {
        use rand::Rng;
        let pool_count = self.unknown_pool();
        let mut pool = [0u8; DECK_CAP];
        let mut len = 0;
        for c in 0..18u8 {
            for _ in 0..pool_count[c as usize] {
                if len < DECK_CAP {
                    pool[len] = c;
                    len += 1;
                }
            }
        }
        for i in (1..len).rev() {
            let j = rng.random_range(0..=i);
            pool.swap(i, j);
        }
        let mut k = 0;
        let mut was_unknown = [0u8; 4];
        for t in 0..self.n as usize {
            for i in 0..4 {
                if self.hand[t][i] == UNKNOWN {
                    was_unknown[t] |= 1 << i;
                    if k < len {
                        self.hand[t][i] = pool[k];
                        k += 1;
                    }
                }
            }
        }
        let mut deck_unknown = 0u128;
        for pos in 0..self.deck_len as usize {
            if self.deck[pos] == UNKNOWN && k < len {
                self.deck[pos] = pool[k];
                deck_unknown |= 1 << pos;
                k += 1;
            }
        }
        self.respect_held(rng, &was_unknown, deck_unknown);
        if let Some((s, card)) = force {
            if !self.hand[s].contains(&card) {
                if let Some(i) = (0..4).find(|&i| was_unknown[s] >> i & 1 == 1) {
                    let mut done = false;
                    'outer: for t in 0..self.n as usize {
                        if t == s {
                            continue;
                        }
                        for j in 0..4 {
                            if was_unknown[t] >> j & 1 == 1 && self.hand[t][j] == card {
                                self.hand[t][j] = self.hand[s][i];
                                self.hand[s][i] = card;
                                done = true;
                                break 'outer;
                            }
                        }
                    }
                    if !done {
                        if let Some(pos) =
                            (0..self.deck_len as usize).find(|&p| self.deck[p] == card)
                        {
                            self.deck[pos] = self.hand[s][i];
                            self.hand[s][i] = card;
                        }
                    }
                }
            }
        }
        self.rng = rng.random::<u64>();
        self.observer = NO_SEAT;
        self.hash = self.compute_hash();
    }
}

//! What each seat knows (docs/rules/tesseris.md, "What each seat knows" and "Chance,
//! determinization, playing on an observation"): a seat's observation of a full state, the cards
//! it cannot place, and determinization (drawing those cards afresh).

use super::*;

/// [`Tesseris::deal_kept_denial`]'s factor on the odds of an unneeded card, per turn kept:
/// 0.6 reproduces the baseline's kept cards (with 4 seats the share another seat needs goes
/// from 49% in fresh cards to 67%, 71%, 76%, 80%, 83% after 1 to 5 turns; dealt at 0.6: 63%,
/// 77%, 85% after 1, 3 and 5 turns).
pub(super) const KEPT_RHO: f64 = 0.6;
/// The fewest seats [`Tesseris::deal_kept_denial`] applies to: with 4 seats it gained (ISMCTS
/// at 20,000 playouts against three baselines, 800 deals of seeds 1 to 4, each paired with the
/// uniform deal: reward share 0.517 against 0.469, +4.7 ± 2.3 points; outright wins 45.9%
/// against 41.8%), with 3 too (against two baselines, 600 deals of seeds 1 to 3: +11.1, −0.8
/// and +14.3 points, +8.2 ± 2.5; outright wins 64.3% against 55.3%), with 2 it lost (75.0%
/// against 81.0% over 300 games).
pub(super) const KEPT_MODEL_SEATS: usize = 3;

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
            let mut slots: [(u8, u8, u8); 4] = [(UNKNOWN, 1 << t, 0); 4];
            for i in 0..4 {
                slots[i] = if t == o {
                    (self.hand[t][i], self.mask[t][i] | 1 << t, 0)
                } else if self.mask[t][i] >> o & 1 == 1 && self.hand[t][i] != UNKNOWN {
                    (self.hand[t][i], 1 << t | 1 << o, 0)
                } else {
                    (UNKNOWN, 1 << t, self.kept[t][i])
                };
            }
            slots.sort_unstable();
            for i in 0..4 {
                g.hand[t][i] = slots[i].0;
                g.mask[t][i] = slots[i].1;
                g.kept[t][i] = slots[i].2;
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
        for t in 0..self.n as usize {
            let slots = was_unknown[t] & self.held(t);
            if slots == 0 {
                continue;
            }
            let open = super::eval::open_mask(self, t);
            for i in 0..4 {
                if slots >> i & 1 == 0 || open >> self.hand[t][i] & 1 == 0 {
                    continue;
                }
                self.swap_from_deck(rng, deck_unknown, t, i, |c| open >> c & 1 == 0);
            }
        }
    }

    /// Swaps the card in slot `i` of `t`'s hand with a uniform choice (reservoir sampling)
    /// among the just-dealt deck cards (`deck_unknown`) that `fits`; none fitting: no swap.
    fn swap_from_deck(
        &mut self,
        rng: &mut GameRng,
        deck_unknown: u128,
        t: usize,
        i: usize,
        fits: impl Fn(u8) -> bool,
    ) {
        use rand::Rng;
        let (mut pick, mut seen) = (None, 0u32);
        for pos in 0..self.deck_len as usize {
            if deck_unknown >> pos & 1 == 1 && fits(self.deck[pos]) {
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

    /// The baseline's denial, read into the deal (with [`KEPT_MODEL_SEATS`] seats or more): a
    /// seat that gives away, each turn, a card no other seat needs when it has one (the
    /// baseline does four times in five) keeps the cards the others need, so each turn a card
    /// stays in its hand makes it likelier one of them. An unknown slot kept `k` turns is
    /// dealt a card another seat needs with the posterior odds: the deal's share of such
    /// cards as prior odds, divided by [`KEPT_RHO`] per turn (swapped in from the unknown
    /// deck cards). The rule and its measurements: docs/rules/tesseris.md, "Chance,
    /// determinization, playing on an observation".
    fn deal_kept_denial(&mut self, rng: &mut GameRng, was_unknown: &[u8; 4], deck_unknown: u128) {
        use rand::Rng;
        if (self.n as usize) < KEPT_MODEL_SEATS {
            return;
        }
        let n = self.n as usize;
        if (0..n).all(|t| was_unknown[t] & self.held(t) == 0) {
            return;
        }
        let mut open = [0u32; 4];
        for (x, m) in open.iter_mut().enumerate().take(n) {
            *m = super::eval::open_mask(self, x);
        }
        // How many of each shape were just dealt (swaps between dealt places keep it).
        let mut dealt = [0u32; 19];
        for pos in 0..self.deck_len as usize {
            if deck_unknown >> pos & 1 == 1 {
                dealt[self.deck[pos] as usize] += 1;
            }
        }
        for x in 0..n {
            for j in 0..4 {
                if was_unknown[x] >> j & 1 == 1 {
                    dealt[self.hand[x][j] as usize] += 1;
                }
            }
        }
        let total: u32 = dealt.iter().sum();
        for t in 0..n {
            let slots = was_unknown[t] & self.held(t);
            if slots == 0 {
                continue;
            }
            let others = (0..n).filter(|&x| x != t).fold(0, |m, x| m | open[x]);
            let want = others & !open[t];
            if want == 0 {
                continue;
            }
            // The prior: the share of wanted cards among those just dealt.
            let dealt_wanted: u32 = (0..18)
                .filter(|&c| want >> c & 1 == 1)
                .map(|c| dealt[c])
                .sum();
            let p0 = dealt_wanted as f64 / total.max(1) as f64;
            for i in 0..4 {
                if slots >> i & 1 == 0 || want >> self.hand[t][i] & 1 == 1 {
                    continue;
                }
                // Posterior odds of wanted: prior odds / rho^k; keep the unwanted card with
                // the probability that makes the slot's chance of unwanted the posterior's.
                let r = KEPT_RHO.powi(self.kept[t][i] as i32);
                if rng.random::<f64>() < r / (p0 + (1.0 - p0) * r) {
                    continue;
                }
                self.swap_from_deck(rng, deck_unknown, t, i, |c| want >> c & 1 == 1);
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
        self.deal_kept_denial(rng, &was_unknown, deck_unknown);
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

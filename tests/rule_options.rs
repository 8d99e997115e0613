//! `RuleOptions::intern` keeps one copy per distinct set of rule options for the life of the
//! process: their number is bounded, so that a client sending ever new values cannot grow memory
//! without bound. (Its own test binary: filling the table would disturb other tests' processes.)

use quatre::game::{Game, RuleOptions, MAX_INTERNED};
use quatre::games::hyperchess::Hyperchess;
use quatre::games::tesseract::Tesseract;

#[test]
fn interning_is_bounded_and_refuses_new_sets_past_the_bound_while_old_ones_stay_usable() {
    let defaults = RuleOptions::of::<Hyperchess>();
    let first = defaults.intern().expect("the first set is interned");
    assert!(
        std::ptr::eq(first, defaults.intern().unwrap()),
        "a set interned twice is the same copy"
    );
    // Ever new values (MaxPlies 1, 2, …) are interned until the bound, then refused.
    let mut made = 1;
    let mut refused = None;
    for plies in 1..=(MAX_INTERNED + 10) {
        let o = RuleOptions::of::<Hyperchess>().with("MaxPlies", &plies.to_string());
        match o.intern() {
            Ok(_) => made += 1,
            Err(e) => {
                refused = Some((plies, e));
                break;
            }
        }
    }
    let (plies, e) = refused.expect("interning must stop at the bound");
    assert!(made <= MAX_INTERNED, "{made} sets interned");
    assert!(e.contains("too many"), "{e}");
    // Past the bound a new set cannot start a game (an error, not a crash), for every game…
    let new = RuleOptions::of::<Hyperchess>().with("MaxPlies", &(plies + 1).to_string());
    assert!(Hyperchess::start(&new).is_err());
    let new_tesseract = RuleOptions::of::<Tesseract>().with("MaxPlies", "7");
    assert!(Tesseract::start(&new_tesseract).is_err());
    assert!(Tesseract::from_text(quatre::games::tesseract::START_TEXT, &new_tesseract).is_err());
    // …while the sets already interned stay usable, and are still shared.
    assert!(Hyperchess::start(&defaults).is_ok());
    let old = RuleOptions::of::<Hyperchess>().with("MaxPlies", "1");
    assert!(Hyperchess::start(&old).is_ok());
    assert!(std::ptr::eq(
        Hyperchess::start(&defaults).unwrap().options(),
        first
    ));
}

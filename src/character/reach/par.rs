//! Work shared over threads: the one way the map's three parallel parts (the places, the moves of each
//! breadth-first round, the blockers) and navigation's jump search start theirs.

/// The threads a setting of `requested` asks for: every core for 0, else as many, from 1 to 64 (the reach
/// map's and the navigation bake's `threads`).
pub(crate) fn thread_count(requested: usize) -> usize {
    if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        requested
    }
    .clamp(1, 64)
}

/// `work(t)` for every `t` in `0..threads`, each on a thread of its own (on this one when `threads` is 1 or
/// less), the answers in the order of `t` whatever order the threads end in; a panic in one is raised again
/// here.
pub(crate) fn on_threads<T: Send>(threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 {
        return vec![work(0)];
    }
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::on_threads;

    #[test]
    fn answers_come_in_thread_order() {
        assert_eq!(on_threads(0, |t| t * 10), vec![0]);
        assert_eq!(on_threads(1, |t| t * 10), vec![0]);
        assert_eq!(on_threads(4, |t| t * 10), vec![0, 10, 20, 30]);
    }

    #[test]
    #[should_panic(expected = "thread 2")]
    fn a_panic_is_raised_again() {
        on_threads(3, |t| {
            assert!(t != 2, "thread {t}");
            t
        });
    }
}

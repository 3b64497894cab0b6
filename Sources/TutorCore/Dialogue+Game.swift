import Foundation

/// XP, levels and badges: celebration, never pressure.
extension Reduction {
    // MARK: - the game layer

    mutating func earnXP(_ points: Int) {
        let before = XP.level(learner.xp)
        state.learner.xp += points
        let after = XP.level(learner.xp)
        if after > before { send(.levelUp(level: after)) }
    }

    /// Announces a badge the first time it is earned.
    mutating func award(_ badge: Badge) {
        guard !learner.badges.contains(badge) else { return }
        state.learner.badges.insert(badge)
        send(.badgeEarned(badge))
    }
}

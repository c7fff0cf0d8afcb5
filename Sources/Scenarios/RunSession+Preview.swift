// Trip previews at checkpoints.

extension RunSession {
    /// Renders the preview a checkpoint asks for; nil (and a failure) when it cannot.
    mutating func preview(_ request: Scenario.RenderRequest, checkpoint: String) async throws -> [UInt8]? {
        run.failures.append("checkpoint \(checkpoint): this build cannot render previews yet")
        return nil
    }
}

import type { ConfirmView } from '../lib/confirmView.ts'

/**
 * The text a raw message signs, as the wallet will sign it, in a box of its own: the page wrote every character, so it
 * is set apart from the window's words and never styled as them.
 */
export function SignedMessage({ message }: { message: NonNullable<ConfirmView['signedMessage']> }) {
  return (
    <section className="card" aria-labelledby="signed-message-title" data-testid="signed-message">
      <h2 id="signed-message-title">{message.bytes ? 'You sign these bytes' : 'You sign this text'}</h2>
      {message.bytes && <p className="muted signed-note">They are not readable text; the site chose them.</p>}
      <pre className={message.bytes ? 'signed-text' : 'signed-text signed-words'}>{message.text || '(nothing)'}</pre>
    </section>
  )
}

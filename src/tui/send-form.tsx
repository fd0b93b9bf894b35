/**
 * The send form opened with `s`: recipient (Tab cycles through the members) and one line of text;
 * Enter sends as the lead, Esc cancels.
 */
import { Text } from 'ink';
import { Pane } from './pane.js';

/** Props of {@link SendForm}. */
export interface SendFormProps {
  from: string;
  to: string;
  text: string;
  height: number;
}

/** See the module comment. */
export function SendForm({ from, to, text, height }: SendFormProps) {
  return (
    <Pane title={`Send a message as ${from} — Enter sends, Tab changes recipient, Esc cancels`} focused height={height}>
      <Text wrap="truncate">
        to: <Text bold>{to}</Text>
      </Text>
      <Text wrap="wrap">
        &gt; {text}
        <Text inverse> </Text>
      </Text>
    </Pane>
  );
}

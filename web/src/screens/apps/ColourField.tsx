// A colour field that keeps exactly what was typed (Mantine's ColorInput reports only colours it
// can parse, so a typo would silently save the old colour); the swatch shows the colour and a
// picker sets it. The catalog spells colours as 6 hex digits without '#'.
import { ActionIcon, ColorPicker, ColorSwatch, Popover, TextInput } from '@mantine/core';
import { fromInput, toCss } from './colours.ts';

export function ColourField({ label, value, onChange, error }: { label: string; value: string; onChange: (value: string) => void; error?: string | undefined }) {
  return (
    <TextInput
      label={label}
      value={value ? `#${value}` : ''}
      onChange={(event) => onChange(fromInput(event.currentTarget.value))}
      error={error}
      leftSection={<ColorSwatch color={toCss(value)} size={18} />}
      rightSection={
        <Popover position="bottom-end" trapFocus>
          <Popover.Target>
            <ActionIcon variant="subtle" aria-label={`Pick ${label.toLowerCase()}`}>
              ◐
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <ColorPicker format="hex" value={toCss(value) === 'transparent' ? '#000000' : toCss(value)} onChange={(picked) => onChange(fromInput(picked))} />
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
}

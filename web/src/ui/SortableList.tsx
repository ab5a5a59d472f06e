// An ordered list that people reorder by dragging a handle (mouse, touch, or keyboard: focus the
// handle, Space to lift, arrows to move, Space to drop), with up/down buttons as well. Built on
// dnd-kit's sortable preset; the list calls onChange with the new order and saves nothing itself.
// A move by the buttons, or by Alt+ArrowUp/Down on a focused row, is announced (an aria-live
// region) by name and position, as drags are.
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface SortableListProps<T> {
  items: readonly T[];
  idOf: (item: T) => number;
  /** The item's name, for the handle's and buttons' accessible names. */
  nameOf: (item: T) => string;
  render: (item: T, index: number) => ReactNode;
  onChange: (items: T[]) => void;
  label: string;
}

export function SortableList<T>({ items, idOf, nameOf, render, onChange, label }: SortableListProps<T>) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = items.map(idOf);

  function dragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    onChange(arrayMove([...items], ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id))));
  }
  // What a screen reader hears while a row moves, in names and positions rather than ids.
  const nameAt = (id: UniqueIdentifier) => {
    const item = items.find((i) => idOf(i) === Number(id));
    return item ? nameOf(item) : String(id);
  };
  const position = (id: UniqueIdentifier | undefined) => `position ${id === undefined ? '?' : ids.indexOf(Number(id)) + 1} of ${ids.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameAt(active.id)}. Move it with the arrow keys, drop it with Space, cancel with Escape.`,
    onDragOver: ({ active, over }) => `${nameAt(active.id)} is at ${position(over?.id)}.`,
    onDragEnd: ({ active, over }) => `${nameAt(active.id)} dropped at ${position(over?.id)}.`,
    onDragCancel: ({ active }) => `Moving ${nameAt(active.id)} was cancelled.`,
  };
  const [said, setSaid] = useState('');
  const move = (index: number, by: number) => {
    const to = index + by;
    if (to < 0 || to >= items.length) return;
    onChange(arrayMove([...items], index, to));
    setSaid(`${nameOf(items[index]!)} moved ${by < 0 ? 'up' : 'down'} to position ${to + 1} of ${items.length}.`);
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={dragEnd} accessibility={{ announcements }}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item, index) => (
            <SortableRow key={idOf(item)} id={idOf(item)} name={nameOf(item)} first={index === 0} last={index === items.length - 1} onMove={(by) => move(index, by)}>
              {render(item, index)}
            </SortableRow>
          ))}
        </ol>
      </SortableContext>
      <VisuallyHidden role="status" aria-live="polite" aria-atomic>
        {said}
      </VisuallyHidden>
    </DndContext>
  );
}

function SortableRow({ id, name, first, last, onMove, children }: { id: number; name: string; first: boolean; last: boolean; onMove: (by: number) => void; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  // After a move by a button the focus stays with the row: on the button pressed, or on the row's
  // other button when the move took the row to the end it moved towards (that button is then
  // disabled, and a disabled button drops the focus to the page).
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const pressed = useRef(0);
  useEffect(() => {
    const by = pressed.current;
    pressed.current = 0;
    if (by === 0) return;
    const target = by < 0 ? (first ? down : up) : last ? up : down;
    if (target.current && document.activeElement !== target.current) target.current.focus();
  });
  const press = (by: number) => {
    pressed.current = by;
    onMove(by);
  };
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      // Alt+ArrowUp/Down on anything focused in the row moves it; the focus stays with the row.
      onKeyDown={(e) => {
        if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
        e.preventDefault();
        onMove(e.key === 'ArrowUp' ? -1 : 1);
      }}
    >
      <Paper withBorder p="xs" mb={4}>
        <Group wrap="nowrap" gap="xs">
          <ActionIcon variant="subtle" {...attributes} {...listeners} aria-label={`Drag ${name}`} style={{ cursor: 'grab' }}>
            <Text aria-hidden>⠿</Text>
          </ActionIcon>
          <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
          <ActionIcon ref={up} variant="subtle" disabled={first} onClick={() => press(-1)} aria-label={`Move ${name} up`}>
            ↑
          </ActionIcon>
          <ActionIcon ref={down} variant="subtle" disabled={last} onClick={() => press(1)} aria-label={`Move ${name} down`}>
            ↓
          </ActionIcon>
        </Group>
      </Paper>
    </li>
  );
}

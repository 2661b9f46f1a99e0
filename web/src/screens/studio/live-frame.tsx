import { useEffect, useRef, useState } from 'preact/hooks';
import type { Box, LiveStream } from './live-socket';
import './studio.css';

/** A point of the page in CSS pixels, from a pointer event on the frame. */
export interface PagePoint { x: number; y: number }

interface LiveFrameProps {
  stream: LiveStream;
  label: string;
  /** Outlined boxes, in the page's CSS pixels. */
  boxes?: Array<{ box: Box; kind: 'action' | 'hover' | 'picked' }>;
  /** Pointer input on the frame, mapped to the page's CSS pixels (the studio); none for a run's view. */
  onPointer?(kind: 'move' | 'down' | 'up' | 'wheel', point: PagePoint, event: MouseEvent | WheelEvent): void;
  onKey?(event: KeyboardEvent): void;
}

/** The latest frame of a live page with outlines drawn over it, scaled to the panel's width. */
export function LiveFrame(props: LiveFrameProps) {
  const { stream } = props;
  const img = useRef<HTMLImageElement>(null);
  // The frame's width as shown, kept in state: outlines are drawn once it is known and again when it changes (a
  // still page sends no new frame to re-render them).
  const [shownWidth, setShownWidth] = useState(0);
  const hasFrame = stream.frame !== undefined;
  useEffect(() => {
    const el = img.current;
    if (!el) return;
    setShownWidth(el.clientWidth);
    const watch = new ResizeObserver(() => setShownWidth(el.clientWidth));
    watch.observe(el);
    return () => watch.disconnect();
  }, [hasFrame]);
  const scale = () => (stream.viewport && img.current ? img.current.clientWidth / stream.viewport.width : 1);
  const toPage = (event: MouseEvent): PagePoint => {
    const rect = img.current!.getBoundingClientRect();
    const s = scale();
    return { x: Math.round((event.clientX - rect.left) / s), y: Math.round((event.clientY - rect.top) / s) };
  };
  const pointer = (kind: 'move' | 'down' | 'up' | 'wheel') => props.onPointer && ((event: MouseEvent) => {
    if (kind !== 'move') event.preventDefault();
    props.onPointer!(kind, toPage(event), event);
  });
  const s = stream.viewport && shownWidth ? shownWidth / stream.viewport.width : 1;
  const style = (box: Box) => ({ left: `${box.x * s}px`, top: `${box.y * s}px`, width: `${box.width * s}px`, height: `${box.height * s}px` });
  return (
    <div class="live-frame" data-frames={stream.frames} tabIndex={props.onKey ? 0 : undefined}
      onKeyDown={props.onKey && ((event) => { event.preventDefault(); props.onKey!(event); })}>
      {stream.frame
        ? <img ref={img} src={stream.frame} alt={props.label} draggable={false}
          onMouseMove={pointer('move')} onMouseDown={pointer('down')} onMouseUp={pointer('up')}
          onWheel={pointer('wheel') as never} onContextMenu={(e) => e.preventDefault()} />
        : <p class="muted live-waiting">{stream.closed ? 'No picture.' : 'Waiting for the first frame…'}</p>}
      {stream.frame && shownWidth > 0 && props.boxes?.map((b, i) => <div key={i} class={`live-outline ${b.kind}`} style={style(b.box)} aria-hidden="true" />)}
    </div>
  );
}
